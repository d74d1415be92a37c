import { ContextWindowExceededError } from '../errors/classes.js';
import type { Endpoint, ModelGroup } from '../types/index.js';
import { contextWindowOf } from './context-window.js';
import { regionOf, requestedRegion } from './region.js';
import { promptTokens } from './token-count.js';

/**
 * The pre-call checks of `enable_pre_call_checks` (spec 10.2) for one call on one group: keep only
 * deployments in the requested region (`allowed_model_region`) and whose context window (from the cost
 * map, by `base_model`) holds the prompt. When no deployment of the group can hold the prompt, throws
 * ContextWindowExceededError at once, so `context_window_fallbacks` apply without a wasted call.
 */
export async function preCallChecks(
  group: ModelGroup,
  request: Readonly<Record<string, unknown>>,
): Promise<(endpoint: Endpoint) => boolean> {
  const region = requestedRegion(request);
  const known = group.endpoints.some((e) => contextWindowOf(e.deployment) !== undefined);
  const tokens = known ? await promptTokens(request) : 0;
  const fits = (endpoint: Endpoint): boolean => {
    const window = contextWindowOf(endpoint.deployment);
    return window === undefined || tokens <= window;
  };
  if (!group.endpoints.some(fits)) {
    throw new ContextWindowExceededError(
      `The prompt (about ${tokens} tokens) does not fit the context window of any deployment of ${group.name}`,
      { model: group.name },
    );
  }
  return (endpoint) => (region === undefined || regionOf(endpoint.deployment) === region) && fits(endpoint);
}
