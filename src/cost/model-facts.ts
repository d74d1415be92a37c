import { LRUCache } from 'lru-cache';
import { supportsAssistantPrefill } from './assistant-prefill.js';
import { isCatalogProvider, type ModelRef, refOf } from './catalog-ids.js';
import type { CostMapEntry, UserCostMap } from './cost-map-file.js';
import { genaiEntry } from './genai-prices-catalog.js';
import { modelsDevEntry } from './models-dev-catalog.js';
import { isReasoningFamily } from './reasoning-families.js';
import { type TokenPrices, withSearchPrice } from './token-prices.js';
import type { UnitPrices } from './unit-prices.js';

/** Where a model's prices came from. */
export type PriceSource = 'deployment' | 'model_cost_map' | 'genai-prices' | 'models.dev';

/**
 * What is known of a model: its prices, context window and capabilities. The one place capability
 * lookups live (the catalogs, then the user's `model_cost_map` over them).
 */
export interface ModelFacts {
  /** Undefined: no price is known (the model is unpriced). */
  readonly prices: TokenPrices | undefined;
  readonly priceSource: PriceSource | undefined;
  /** The context window, when known. */
  readonly maxInputTokens: number | undefined;
  readonly supportsReasoning: boolean;
  /**
   * Whether it continues a trailing assistant message: a `model_cost_map` entry's word, else the family
   * rule of `supportsAssistantPrefill` (the catalogs carry no such flag).
   */
  readonly supportsAssistantPrefill: boolean;
  /** Prices of calls billed by the second of audio or by the search (genai-prices). */
  readonly unitPrices?: UnitPrices | undefined;
  /** The catalog entry the prices came from (`openai:gpt-4o`, `openrouter:deepseek/deepseek-r1`). */
  readonly catalogId: string | undefined;
}

// The catalogs' answer for a model is the same for every router in the process; model names come from
// users (pass-through models too), so the memo is bounded.
const catalogMemo = new LRUCache<string, ModelFacts>({ max: 4096 });

/**
 * What the catalogs know of a model: prices and context window from genai-prices, else from
 * models.dev; reasoning support from models.dev or the reasoning families. `at`: the day whose
 * prices apply (prices that change on a date).
 */
export function catalogFacts(ref: ModelRef, at: Date = new Date()): ModelFacts {
  const key = `${ref.provider}/${ref.model}@${at.toISOString().slice(0, 10)}`;
  let facts = catalogMemo.get(key);
  if (!facts) {
    facts = lookUp(ref, at);
    catalogMemo.set(key, facts);
  }
  return facts;
}

function lookUp(asked: ModelRef, at: Date): ModelFacts {
  const genai = genaiEntry(asked, at);
  // a bare model id (`gpt-4o`): the provider genai-prices recognised it by answers for it
  const ref = asked.provider === '' && genai ? { provider: genai.provider, model: asked.model } : asked;
  const dev = modelsDevEntry(ref);
  const prices = genai?.prices ?? dev?.prices;
  return {
    prices,
    priceSource: genai?.prices ? 'genai-prices' : dev?.prices ? 'models.dev' : undefined,
    maxInputTokens: genai?.maxInputTokens ?? dev?.maxInputTokens,
    // models.dev's flag is missing for the families released since its snapshot, and wrong for some
    // older entries (Bedrock's Claude 3.7 Sonnet): either source saying so is enough
    supportsReasoning: dev?.reasoning === true || isReasoningFamily(ref.model),
    supportsAssistantPrefill: supportsAssistantPrefill(ref.model),
    catalogId: genai?.prices ? genai.id : dev?.prices ? dev.id : undefined,
    unitPrices: genai?.unitPrices,
  };
}

/** The catalogs' facts with a `model_cost_map` entry over them, field by field. */
export function modelFacts(ref: ModelRef, userMap?: UserCostMap, at?: Date): ModelFacts {
  const catalog = catalogFacts(ref, at);
  const entry = userMap?.entryFor(ref);
  if (!entry) return catalog;
  const prices = withSearchPrice(entryPrices(entry), catalog.prices);
  return {
    prices: prices ?? catalog.prices,
    priceSource: prices ? 'model_cost_map' : catalog.priceSource,
    maxInputTokens: entry.max_input_tokens ?? catalog.maxInputTokens,
    supportsReasoning: entry.supports_reasoning ?? catalog.supportsReasoning,
    supportsAssistantPrefill: entry.supports_assistant_prefill ?? catalog.supportsAssistantPrefill,
    catalogId: prices ? undefined : catalog.catalogId,
    unitPrices: catalog.unitPrices,
  };
}

/**
 * Prices written with LiteLLM's field names (a `model_cost_map` entry, a deployment's `svc_params` or
 * `model_info`), in dollars per token; undefined when neither the input nor the output price is given.
 * Cache prices default to the input price.
 */
export function entryPrices(entry: Partial<CostMapEntry>): TokenPrices | undefined {
  const { input_cost_per_token: input, output_cost_per_token: output } = entry;
  if (input === undefined && output === undefined) return undefined;
  return {
    input: input ?? 0,
    output: output ?? 0,
    cacheRead: entry.cache_read_input_token_cost ?? input ?? 0,
    cacheWrite: entry.cache_creation_input_token_cost ?? input ?? 0,
  };
}

/**
 * A `<prefix>/<model>` name (`openrouter/deepseek/deepseek-r1`, `bedrock/us.anthropic...`) or a bare
 * model id (`gpt-4o`) as the catalogs are asked about it.
 */
export function refOfName(name: string): ModelRef {
  return refOf(name, isCatalogProvider);
}
