import { preCallChecks } from '../../checks/pre-call-checks.js';
import type { Call, Handler, Layer, Routed, Step } from '../call.js';

/**
 * `enable_pre_call_checks`: before a group is tried, works out which of its deployments may serve this
 * request (region, context window); when none can hold the prompt, fails with ContextWindowExceededError
 * before any call, so `context_window_fallbacks` apply. Composed only when the setting is on.
 */
export const preCallChecksLayer: Layer =
  (next: Handler) =>
  async <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
    const admits = await preCallChecks(step.group, call.request);
    return await next(call, { ...step, admits });
  };
