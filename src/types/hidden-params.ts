import type { ProviderName } from './provider.js';

/**
 * Routing facts every result carries as `_hidden_params`: a non-enumerable property of a completion
 * (left out of `JSON.stringify`), an accessor of a stream.
 */
export interface HiddenParams {
  /** The deployment that served the call. */
  model_id: string;
  /** The model group that served the call (differs from the requested model after a fallback). */
  model_group: string;
  api_base: string | null;
  custom_llm_provider: ProviderName;
  /** Dollars, from the deployment's prices (its own, `model_cost_map`'s or the catalog's); 0 when unpriced. */
  response_cost: number;
  /**
   * Whether `response_cost` comes from a price: false when the serving deployment has none (its 0 means
   * "unknown", not "free"). A cache hit is priced (it cost nothing).
   */
  priced: boolean;
  cache_hit: boolean;
  /** Upstream calls made for this request, across retries and fallbacks (1 when the first one served). */
  attempts: number;
}

/** A value that carries `_hidden_params`. */
export type WithHiddenParams<T> = T & { readonly _hidden_params: HiddenParams };
