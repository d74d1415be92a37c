import { lookupModelPrice } from '../cost/lookup.js';
import { costModelName } from '../cost/response-cost.js';
import type { Deployment } from '../types/index.js';

/**
 * A deployment's context window: its `model_info.max_input_tokens`, else the cost map's (by
 * `base_model`, else the model); undefined when unknown.
 */
export function contextWindowOf(deployment: Deployment): number | undefined {
  return deployment.info.max_input_tokens ?? lookupModelPrice(costModelName(deployment))?.max_input_tokens;
}
