import { ContentPolicyViolationError } from '../../errors/classes.js';
import { isRequestFault } from '../../errors/request-fault.js';
import { RouterError } from '../../errors/router-error.js';
import { type FallbackSettings, fallbacksFor } from '../../policies/fallback-policy.js';
import type { ModelGroup } from '../../types/index.js';
import type { Call, Handler, Layer, Routed, Step } from '../call.js';

export interface FallbacksDeps {
  settings: FallbackSettings & { maxFallbacks: number };
  group(name: string): ModelGroup | undefined;
  /** `resumed`: the call continues a broken stream (`stream_resume`). */
  onFallback(from: string, to: string, error: RouterError, resumed: boolean): void;
}

/**
 * When a group fails, tries the fallback groups its error class allows (content-policy refusals only
 * their own list; context-window errors theirs first; a request's `fallbacks` before the configured
 * ones). Each group is tried at most once per call and at most `max_fallbacks` hops are made. A
 * fallback the call's `allowModel` refuses is skipped like one that names no group: the caller may not
 * reach it by falling back any more than by asking for it. Always in the call path (a request may
 * name its own `fallbacks`); a call with no fallback list, configured or its own, goes straight on.
 */
export function fallbacksLayer(deps: FallbacksDeps): Layer {
  const { settings } = deps;
  const stops = (err: unknown, call: Call<unknown>, step: Step): boolean =>
    Boolean(step.signal?.aborted) ||
    !RouterError.isInstance(err) ||
    isRequestFault(err) ||
    call.spent?.() === true;
  const configured =
    settings.fallbacks.length > 0 ||
    settings.context_window_fallbacks.length > 0 ||
    settings.content_policy_fallbacks.length > 0 ||
    settings.default_fallbacks.length > 0;
  return (next: Handler) => {
    const falling = async <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
      let error: RouterError;
      try {
        return await next(call, step);
      } catch (err) {
        if (stops(err, call, step)) throw err;
        error = err as RouterError;
      }
      const requested = call.request.fallbacks;
      const requestFallbacks = Array.isArray(requested) ? (requested as string[]) : undefined;
      const start = step.group.name;
      const visited = new Set([start]);
      const refusal = ContentPolicyViolationError.isInstance(error);
      const { allowModel } = call;
      let from = start;
      let hops = 0;
      for (const name of fallbacksFor(start, error, settings, requestFallbacks)) {
        if (hops >= settings.maxFallbacks || visited.has(name)) continue;
        if (allowModel !== undefined && !allowModel(name)) continue;
        const group = deps.group(name);
        if (!group) continue;
        visited.add(name);
        hops += 1;
        deps.onFallback(from, name, error, call.resumed === true);
        // a new group: its own tier, checks and strategy, no backoff planned in the last one
        const moved: Step = { ...step, group, tier: group.tiers[0]!, admits: undefined, backoff: undefined };
        try {
          return await next(call, moved);
        } catch (err) {
          if (stops(err, call, moved)) throw err;
          error = err as RouterError;
          from = name;
          // a refusal met on a general fallback is not routed around either
          if (!refusal && ContentPolicyViolationError.isInstance(error)) break;
        }
      }
      throw error;
    };
    // nothing configured and none in the request: the call goes straight on, no async frame
    return <T>(call: Call<T>, step: Step): Promise<Routed<T>> =>
      configured || Array.isArray(call.request.fallbacks) ? falling(call, step) : next(call, step);
  };
}
