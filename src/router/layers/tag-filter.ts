import { tagFilter, tagsOfRequest } from '../../checks/tag-filter.js';
import type { Call, Handler, Layer, Routed } from '../call.js';

/**
 * `enable_tag_filtering`: in each group tried, only the deployments the request's `metadata.tags`
 * select may serve it (`tagFilter`); a tagged request that no deployment of the group serves fails at
 * once with 400 `no_deployment_for_tags`. Composed only when the setting is on.
 */
export const tagFilterLayer: Layer =
  (next: Handler) =>
  <T>(call: Call<T>): Promise<Routed<T>> => {
    let admits: ReturnType<typeof tagFilter>;
    try {
      admits = tagFilter(call.group, tagsOfRequest(call.request, true));
    } catch (error) {
      return Promise.reject(error);
    }
    if (admits) {
      const checks = call.admits;
      call.admits = checks ? (e) => admits(e) && checks(e) : admits;
    }
    return next(call);
  };
