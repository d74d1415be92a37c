import { tagFilter, tagsOfRequest } from '../../checks/tag-filter.js';
import type { Call, Handler, Layer, Routed, Step } from '../call.js';

/**
 * `enable_tag_filtering`: in each group tried, only the deployments the request's `metadata.tags`
 * select may serve it (`tagFilter`); a tagged request that no deployment of the group serves fails at
 * once with 400 `no_deployment_for_tags`. Composed only when the setting is on.
 */
export const tagFilterLayer: Layer =
  (next: Handler) =>
  <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
    let admits: ReturnType<typeof tagFilter>;
    try {
      admits = tagFilter(step.group, tagsOfRequest(call.request, true));
    } catch (error) {
      return Promise.reject(error);
    }
    if (!admits) return next(call, step);
    const checks = step.admits;
    return next(call, { ...step, admits: checks ? (e) => admits(e) && checks(e) : admits });
  };
