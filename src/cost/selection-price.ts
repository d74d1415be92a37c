import type { Deployment } from '../types/index.js';

/** What a deployment costs for comparison when it has no price (spec 8). */
export const UNKNOWN_PRICE = 1;

/**
 * The price cost-based routing compares: input plus output dollars per token, as resolved for the
 * deployment (its own prices, else `model_cost_map`'s, else the catalog's), else 1 dollar, so an
 * unpriced deployment is chosen only when nothing priced is available.
 */
export function selectionPrice(deployment: Deployment): number {
  const prices = deployment.cost.prices;
  return prices ? prices.input + prices.output : UNKNOWN_PRICE;
}
