import { ContentPolicyViolationError, ContextWindowExceededError } from '../errors/classes.js';
import type { RouterError } from '../errors/router-error.js';

/** The config shape of every fallback list: `[{ "<model>": ["<fallback>", ...] }]`. */
export type FallbackList = ReadonlyArray<Readonly<Record<string, readonly string[]>>>;

export interface FallbackSettings {
  fallbacks: FallbackList;
  context_window_fallbacks: FallbackList;
  content_policy_fallbacks: FallbackList;
  default_fallbacks: readonly string[];
}

/** The models listed for `model` (an entry for `*` applies to every model without its own). */
export function listedFor(list: FallbackList, model: string): readonly string[] {
  let wildcard: readonly string[] | undefined;
  for (const entry of list) {
    if (entry[model]) return entry[model];
    wildcard ??= entry['*'];
  }
  return wildcard ?? [];
}

/**
 * Which model groups a failed call may fall back to, by error class (spec 10.1, 10.5):
 * a content-policy refusal only to `content_policy_fallbacks` (never routed around otherwise); a
 * context-window error to `context_window_fallbacks`, else the general lists; anything else to the
 * request's `fallbacks`, else the configured `fallbacks` for the model, else `default_fallbacks`.
 */
export function fallbacksFor(
  model: string,
  error: RouterError,
  settings: FallbackSettings,
  requestFallbacks: readonly string[] | undefined,
): readonly string[] {
  if (ContentPolicyViolationError.isInstance(error))
    return listedFor(settings.content_policy_fallbacks, model);
  if (ContextWindowExceededError.isInstance(error)) {
    const listed = listedFor(settings.context_window_fallbacks, model);
    if (listed.length > 0) return listed;
  }
  if (requestFallbacks) return requestFallbacks;
  const configured = listedFor(settings.fallbacks, model);
  return configured.length > 0 ? configured : settings.default_fallbacks;
}
