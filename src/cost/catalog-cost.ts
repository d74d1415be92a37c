import type { Usage } from '../types/index.js';
import { catalogFacts } from './model-facts.js';
import { usageCost } from './response-cost.js';

/**
 * The catalog's price of `usage` on `model` of `provider` (cached input and cache writes at their own
 * prices): what the router charges a deployment of that model that sets no prices of its own. `priced`
 * is false when the catalog has no price for it (then `cost` is 0: unknown, not free). The lookup is
 * memoised per model, so it can run per call.
 *
 * @example catalogCost('anthropic', 'claude-sonnet-4-5', { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200 });
 */
export function catalogCost(
  provider: string,
  model: string,
  usage: Partial<Usage>,
): { cost: number; priced: boolean } {
  const { prices } = catalogFacts({ provider, model });
  return { cost: usageCost(prices, usage), priced: prices !== undefined };
}
