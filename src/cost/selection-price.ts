import type { Deployment } from '../types/index.js';
import { deploymentPrices } from './response-cost.js';

/** What a deployment costs for comparison when neither it nor the cost map gives a price (spec 8). */
export const UNKNOWN_PRICE = 1;

/**
 * The price cost-based routing compares: input plus output dollars per token, from the deployment's
 * `input_cost_per_token`/`output_cost_per_token`, else the cost map (by `base_model`, else the model),
 * else 1 dollar, so an unpriced deployment is chosen only when nothing priced is available.
 */
export function selectionPrice(deployment: Deployment): number {
  const prices = deploymentPrices(deployment);
  return prices ? prices.input + prices.output : UNKNOWN_PRICE;
}
