import { InternalServerError, RateLimitError } from '../../errors/classes.js';
import type { Call, Handler, Layer, Routed, Step } from '../call.js';

/**
 * The testing fields LiteLLM users send: `mock_testing_rate_limit_error: true` answers as if the group
 * were rate limited, `mock_testing_fallbacks: true` as if it failed, without calling any provider, so
 * fallbacks and alerts can be tried end to end. Applies to the requested group only: its fallbacks are
 * called for real.
 */
export const mockFaultsLayer: Layer =
  (next: Handler) =>
  <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
    const { request } = call;
    const { group } = step;
    if (group.name === call.model) {
      if (request.mock_testing_rate_limit_error === true) {
        return Promise.reject(
          new RateLimitError(
            `mock_testing_rate_limit_error is set: ${group.name} answered as if rate limited (no provider was called)`,
            { model: group.name },
          ),
        );
      }
      if (request.mock_testing_fallbacks === true) {
        return Promise.reject(
          new InternalServerError(
            `mock_testing_fallbacks is set: ${group.name} answered as if it failed (no provider was called)`,
            { model: group.name },
          ),
        );
      }
    }
    return next(call, step);
  };
