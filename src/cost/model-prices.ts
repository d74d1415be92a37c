import { createRequire } from 'node:module';
import type costMapJson from './model-prices.json';

// read with require, not an import attribute: JSON modules print an ExperimentalWarning on some Node
// 20 releases, and a library must not warn on import (the type import keeps the file in the build)
const costMap = createRequire(import.meta.url)('./model-prices.json') as typeof costMapJson;

/** What the cost map knows of a model. Prices are dollars per token. */
export interface ModelPrice {
  max_input_tokens: number;
  max_output_tokens?: number;
  input_cost_per_token: number;
  output_cost_per_token: number;
  supports_reasoning?: boolean;
  mode: 'chat' | 'embedding' | 'completion' | 'image_generation';
}

/**
 * The model cost map (`svc_model_cost_map`): public list prices and context windows of the common
 * models of every supported provider, keyed by the provider's base model name. The data is
 * `model-prices.json`, which names its source and date. Versioned names
 * (`claude-sonnet-4-5-20250929`, `anthropic.claude-3-7-sonnet-20250219-v1:0`) resolve through
 * `lookupModelPrice`.
 */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze(
  costMap.models as Record<string, ModelPrice>,
);

/** Where the cost map's numbers come from, and when they were taken. */
export const MODEL_PRICES_SOURCE: { readonly source: string; readonly date: string } = Object.freeze({
  source: costMap.source,
  date: costMap.date,
});
