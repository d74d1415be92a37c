import { z } from 'zod';
import { didYouMean } from './did-you-mean.js';

/**
 * `svc_settings` (LiteLLM's `litellm_settings`): the module-level settings of a LiteLLM config, each
 * mapped to the router setting it means. `router_settings` wins where both set one.
 */
export const SVC_SETTINGS_TO_ROUTER: Readonly<Record<string, string>> = {
  drop_params: 'drop_params',
  set_verbose: 'set_verbose',
  num_retries: 'num_retries',
  request_timeout: 'timeout',
  cache: 'cache_responses',
  cache_params: 'cache_kwargs',
  default_fallbacks: 'default_fallbacks',
  context_window_fallbacks: 'context_window_fallbacks',
  content_policy_fallbacks: 'content_policy_fallbacks',
};

/** LiteLLM settings that name integrations by string: loggers here are objects given from code. */
export const UNSUPPORTED_SVC_SETTINGS: Readonly<Record<string, string>> = {
  callbacks: 'logger callbacks are objects: pass them as the router setting `callbacks` from code',
  success_callback: 'logger callbacks are objects: pass them as the router setting `callbacks` from code',
  failure_callback: 'logger callbacks are objects: pass them as the router setting `callbacks` from code',
};

/** Any values: each is checked as the router setting it maps to. */
export const svcSettingsSchema = z.record(z.string(), z.unknown());

/**
 * The router settings `svc_settings` stand for, and a problem for each key that maps to none.
 */
export function svcSettingsAsRouterSettings(svc: Readonly<Record<string, unknown>>): {
  settings: Record<string, unknown>;
  problems: string[];
} {
  const settings: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(svc)) {
    const target = SVC_SETTINGS_TO_ROUTER[key];
    if (target) settings[target] = value;
    else if (UNSUPPORTED_SVC_SETTINGS[key])
      problems.push(`svc_settings.${key}: not supported: ${UNSUPPORTED_SVC_SETTINGS[key]}`);
    else problems.push(`svc_settings: unknown setting \`${key}\`${suggest(key)}`);
  }
  return { settings, problems };
}

function suggest(key: string): string {
  const known = Object.keys(SVC_SETTINGS_TO_ROUTER);
  return (
    didYouMean(key, known) ||
    `; svc_settings takes ${known.map((k) => `\`${k}\``).join(', ')} (set any other router setting under router_settings)`
  );
}
