import type { ProviderTarget } from '../shared/provider-adapter.js';

/** Request defaults a deployment's `svc_params` may carry (OpenAI request fields). */
export const REQUEST_DEFAULT_KEYS: readonly string[] = [
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
