import type { Deployment, Usage } from '../types/index.js';
import { priceSetFor, type TokenPrices } from './token-prices.js';

const count = (value: unknown): number => (typeof value === 'number' && value > 0 ? value : 0);

/**
 * The dollar cost of a usage at these prices; 0 when either is unknown. Every part is billed at its
 * own price: prompt tokens read from the provider's cache (`prompt_tokens_details.cached_tokens`:
 * OpenAI's, Anthropic's `cache_read_input_tokens`, Gemini's `cachedContentTokenCount`) at the cache-read
 * price, those written to it (`cache_creation_tokens`: Anthropic's `cache_creation_input_tokens`) at the
 * cache-write price, the rest of the prompt at the input price, and completion tokens (reasoning tokens
 * included, as every provider bills them) at the output price. A long prompt pays its tier's prices.
 * Web searches the provider ran (`server_tool_use.web_search_requests`) pay the price per search.
 */
export function usageCost(prices: TokenPrices | undefined, usage: Partial<Usage> | undefined): number {
  if (!usage || !prices) return 0;
  const prompt = count(usage.prompt_tokens);
  const details = usage.prompt_tokens_details;
  const cacheRead = count(details?.cached_tokens);
  const cacheWrite = count(details?.cache_creation_tokens);
  const set = priceSetFor(prices, prompt);
  const uncached = Math.max(0, prompt - cacheRead - cacheWrite);
  return (
    uncached * set.input +
    cacheRead * set.cacheRead +
    cacheWrite * set.cacheWrite +
    count(usage.completion_tokens) * set.output +
    count(usage.server_tool_use?.web_search_requests) * (prices.webSearch ?? 0)
  );
}

/** The dollar cost of a call's usage on a deployment (its prices resolved at construction); 0 when unpriced. */
export function responseCost(deployment: Deployment, usage: Partial<Usage> | undefined): number {
  return usageCost(deployment.cost.prices, usage);
}
