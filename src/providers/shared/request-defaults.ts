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

// which defaults a request replaces with its own fields: a bit per kind
const WITHOUT_REASONING = 1;
const WITHOUT_LIMIT = 2;

const defaultsCache = new WeakMap<ProviderTarget, Array<Readonly<Record<string, unknown>> | undefined>>();

// `max_new_tokens` (a LiteLLM/TGI name) is the OpenAI `max_tokens`, which each adapter turns into its
// provider's limit field; a limit spelled the OpenAI way in svc_params wins over it
function picked(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of REQUEST_DEFAULT_KEYS) if (params[key] !== undefined) out[key] = params[key];
  if (
    params.max_new_tokens !== undefined &&
    out.max_tokens === undefined &&
    out.max_completion_tokens === undefined
  )
    out.max_tokens = params.max_new_tokens;
  return out;
}

function defaultsOf(target: ProviderTarget, without: number): Readonly<Record<string, unknown>> {
  let byKind = defaultsCache.get(target);
  if (!byKind) {
    byKind = [];
    defaultsCache.set(target, byKind);
  }
  let defaults = byKind[without];
  if (!defaults) {
    const out = picked(target.params as Readonly<Record<string, unknown>>);
    if (without & WITHOUT_REASONING) {
      delete out.reasoning_effort;
      delete out.thinking;
    }
    if (without & WITHOUT_LIMIT) {
      delete out.max_tokens;
      delete out.max_completion_tokens;
    }
    defaults = Object.freeze(out);
    byKind[without] = defaults;
  }
  return defaults;
}

/** The request defaults of a target, computed once per deployment. */
export function requestDefaultsOf(target: ProviderTarget): Readonly<Record<string, unknown>> {
  return defaultsOf(target, 0);
}

/** The deployment's request defaults without its reasoning presets (`reasoning_effort`, `thinking`). */
export function requestDefaultsWithoutReasoning(target: ProviderTarget): Readonly<Record<string, unknown>> {
  return defaultsOf(target, WITHOUT_REASONING);
}

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * The defaults that go under this request. A request that sets its own `reasoning_effort` or
 * `thinking` replaces both reasoning presets of the deployment: a caller's `reasoning_effort: 'none'`
 * must switch off a preset `thinking`, not lose to it. Likewise a request's own `max_tokens` or
 * `max_completion_tokens` replaces the deployment's limit (`max_tokens`, `max_completion_tokens` or
 * `max_new_tokens`), so a provider never gets two limits.
 */
export function requestDefaultsFor(
  target: ProviderTarget,
  request: object,
): Readonly<Record<string, unknown>> {
  const r = request as {
    reasoning_effort?: unknown;
    thinking?: unknown;
    max_tokens?: unknown;
    max_completion_tokens?: unknown;
  };
  const reasoning = r.reasoning_effort !== undefined || r.thinking !== undefined ? WITHOUT_REASONING : 0;
  const limit = isSet(r.max_tokens) || isSet(r.max_completion_tokens) ? WITHOUT_LIMIT : 0;
  return defaultsOf(target, reasoning | limit);
}
