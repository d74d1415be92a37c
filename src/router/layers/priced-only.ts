import { BadRequestError } from '../../errors/classes.js';
import type { Endpoint, ModelGroup } from '../../types/index.js';
import type { Call, Handler, Layer, Routed, Step } from '../call.js';

const billable = (e: Endpoint): boolean => e.deployment.cost.billable;

/** The refusal of a call charged to a budget on a group with no deployment it may use. */
export function unpricedError(group: ModelGroup): BadRequestError {
  const models = group.endpoints.map((e) => `\`${e.deployment.provider}/${e.deployment.providerModel}\``);
  return new BadRequestError(
    `Model group \`${group.name}\` has no price (${models.join(', ')}) and this call is charged to a ` +
      'budget, so it cannot be counted: set input_cost_per_token/output_cost_per_token on the deployment ' +
      'or in model_cost_map, or model_info.allow_unpriced: true to let budgeted calls use it at no cost.',
    { model: group.name, code: 'model_unpriced' },
  );
}

/**
 * `CallControl.pricedOnly` (calls charged to a budget): in each group tried, only deployments with a
 * price or `model_info.allow_unpriced` are candidates; a group with none of those fails at once with
 * 400 `model_unpriced`. Composed only when some deployment is unbillable (or pass-through is on); a
 * call without the option goes straight through.
 */
export const pricedOnlyLayer: Layer =
  (next: Handler) =>
  <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
    const { group } = step;
    if (!call.pricedOnly || group.billable === 'all') return next(call, step);
    if (group.billable === 'none') return Promise.reject(unpricedError(group));
    const checks = step.admits;
    return next(call, { ...step, admits: checks ? (e) => billable(e) && checks(e) : billable });
  };
