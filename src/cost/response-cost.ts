import type { Deployment, Usage } from '../types/index.js';
import { lookupModelPrice } from './lookup.js';

/** Dollars per prompt and per completion token. */
export interface TokenPrices {
  readonly input: number;
  readonly output: number;
}

// A deployment's prices follow from its params and the static cost map: worked out once per
// deployment, not once per answer (`null`: known to have none).
const pricesCache = new WeakMap<Deployment, TokenPrices | null>();

/**
 * Per-token prices of a deployment: its own `input/output_cost_per_token` (in `svc_params`, else in
 * `model_info`), else the cost map's.
 */
export function deploymentPrices(deployment: Deployment): TokenPrices | undefined {
  let prices = pricesCache.get(deployment);
  if (prices === undefined) {
    prices = pricesOf(deployment) ?? null;
    pricesCache.set(deployment, prices);
  }
  return prices ?? undefined;
}

function pricesOf(deployment: Deployment): TokenPrices | undefined {
  const { params, info } = deployment;
  for (const own of [params, info]) {
    if (own.input_cost_per_token !== undefined || own.output_cost_per_token !== undefined)
      return { input: own.input_cost_per_token ?? 0, output: own.output_cost_per_token ?? 0 };
  }
  const price = lookupModelPrice(costModelName(deployment));
  return price ? { input: price.input_cost_per_token, output: price.output_cost_per_token } : undefined;
}

/** The name the cost map is asked about: `base_model` (svc_params, then model_info), else the model. */
export function costModelName(deployment: Deployment): string {
  return deployment.params.base_model ?? deployment.info.base_model ?? deployment.providerModel;
}

/** The dollar cost of a call's usage on a deployment; 0 when its prices are unknown. */
export function responseCost(deployment: Deployment, usage: Partial<Usage> | undefined): number {
  if (!usage) return 0;
  const prices = deploymentPrices(deployment);
  if (!prices) return 0;
  return (usage.prompt_tokens ?? 0) * prices.input + (usage.completion_tokens ?? 0) * prices.output;
}
