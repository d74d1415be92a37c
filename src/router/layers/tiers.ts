import { NoDeploymentsAvailableError } from '../../errors/classes.js';
import { isRequestFault } from '../../errors/request-fault.js';
import type { RouterError } from '../../errors/router-error.js';
import type { ModelGroup } from '../../types/index.js';
import type { Call, Handler, Layer, Routed, Step } from '../call.js';

/** Whether a failure says something about the deployment (so another one may serve) rather than the request. */
export function isDeploymentFailure(error: RouterError): boolean {
  return error.retryable || error.status === 401 || error.status === 403 || error.status === 404;
}

export interface TiersDeps {
  noDeployments(group: ModelGroup, request: Readonly<Record<string, unknown>>): NoDeploymentsAvailableError;
}

/**
 * Runs a group tier by tier (`order`, lowest first): the next tier when one is exhausted or has nothing
 * available; a failure that is the request's fault stops at once. Composed only when some group has
 * more than one tier; otherwise the single tier is set by the group's entry.
 */
export function tiersLayer(deps: TiersDeps): Layer {
  return (next: Handler) =>
    async <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
      const { group } = step;
      if (group.tiers.length === 1) return await next(call, step);
      let lastFailure: RouterError | undefined;
      // the soonest "try again" of the tiers that had nothing available (cooldowns, per-minute limits)
      let soonest: NoDeploymentsAvailableError | undefined;
      for (const tier of group.tiers) {
        try {
          return await next(call, tier === step.tier ? step : { ...step, tier });
        } catch (err) {
          if (step.signal?.aborted || isRequestFault(err) || call.spent?.()) throw err;
          const error = err as RouterError;
          if (NoDeploymentsAvailableError.isInstance(error)) {
            if (!soonest || (error.retryAfterMs ?? 0) < (soonest.retryAfterMs ?? 0)) soonest = error;
            continue;
          }
          lastFailure = error;
          if (!isDeploymentFailure(error)) throw error;
        }
      }
      throw lastFailure ?? soonest ?? deps.noDeployments(group, call.request);
    };
}
