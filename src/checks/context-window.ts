import type { Deployment } from '../types/index.js';

/**
 * A deployment's context window, resolved with its prices at construction: its
 * `model_info.max_input_tokens`, else `model_cost_map`'s, else the catalog's (by `base_model`, else
 * the model); undefined when unknown.
 */
export function contextWindowOf(deployment: Deployment): number | undefined {
  return deployment.cost.maxInputTokens;
}
