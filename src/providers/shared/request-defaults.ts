import type { SvcParams } from '../../types/index.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';

/** Request defaults a deployment's `svc_params` may carry (OpenAI request fields). */
export const REQUEST_DEFAULT_KEYS: readonly (keyof SvcParams)[] = [
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'stop',
  'seed',
  'n',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'user',
  'response_format',
  'reasoning_effort',
  'thinking',
  'parallel_tool_calls',
];

const defaultsCache = new WeakMap<ProviderTarget, Readonly<Record<string, unknown>>>();

/** The request defaults of a target, computed once per deployment. */
export function requestDefaultsOf(target: ProviderTarget): Readonly<Record<string, unknown>> {
  let defaults = defaultsCache.get(target);
  if (!defaults) {
    const picked: Record<string, unknown> = {};
    for (const key of REQUEST_DEFAULT_KEYS)
      if (target.params[key] !== undefined) picked[key] = target.params[key];
    defaults = Object.freeze(picked);
    defaultsCache.set(target, defaults);
  }
  return defaults;
}

const withoutReasoningCache = new WeakMap<ProviderTarget, Readonly<Record<string, unknown>>>();

/** The deployment's request defaults without its reasoning presets (`reasoning_effort`, `thinking`). */
export function requestDefaultsWithoutReasoning(target: ProviderTarget): Readonly<Record<string, unknown>> {
  let defaults = withoutReasoningCache.get(target);
  if (!defaults) {
    const { reasoning_effort: _effort, thinking: _thinking, ...rest } = requestDefaultsOf(target);
    defaults = Object.freeze(rest);
    withoutReasoningCache.set(target, defaults);
  }
  return defaults;
}

/**
 * The defaults that go under this request. A request that sets its own `reasoning_effort` or
 * `thinking` replaces both reasoning presets of the deployment: a caller's `reasoning_effort: 'none'`
 * must switch off a preset `thinking`, not lose to it.
 */
export function requestDefaultsFor(
  target: ProviderTarget,
  request: object,
): Readonly<Record<string, unknown>> {
  const r = request as { reasoning_effort?: unknown; thinking?: unknown };
  return r.reasoning_effort !== undefined || r.thinking !== undefined
    ? requestDefaultsWithoutReasoning(target)
    : requestDefaultsOf(target);
}
