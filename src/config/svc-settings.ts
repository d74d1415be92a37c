import { z } from 'zod';
import { ConfigError } from '../errors/config-error.js';
import { didYouMean } from '../shared/did-you-mean.js';
import { litellmCallbacksMessage } from './litellm-callbacks.js';
import { parseWithEnv } from './parse-with-env.js';
import { routerSettingsSchema, SETTING_NAMES } from './settings-schema.js';

const router = routerSettingsSchema.shape;

/**
 * `svc_settings` (LiteLLM's `litellm_settings`): each key and the router setting it stands for.
 * `cache_params` also sets `redis_host`/`redis_port`/`redis_password` when its `type` is `redis`.
 */
export const SVC_SETTINGS_TO_ROUTER = {
  drop_params: 'drop_params',
  set_verbose: 'set_verbose',
  num_retries: 'num_retries',
  request_timeout: 'timeout',
  allowed_fails: 'allowed_fails',
  cooldown_time: 'cooldown_time',
  fallbacks: 'fallbacks',
  default_fallbacks: 'default_fallbacks',
  context_window_fallbacks: 'context_window_fallbacks',
  content_policy_fallbacks: 'content_policy_fallbacks',
  cache: 'cache_responses',
  cache_params: 'cache_kwargs',
  callbacks: 'callbacks',
} as const satisfies Record<string, keyof typeof router>;

export type SvcSettingName = keyof typeof SVC_SETTINGS_TO_ROUTER;

/** The keys `svc_settings` takes. */
export const SVC_SETTING_NAMES = Object.keys(SVC_SETTINGS_TO_ROUTER) as readonly SvcSettingName[];

const CALLBACKS =
  'LiteLLM integrations are not built in: send call records with `callbacks` entries ({ type: "otlp" | "webhook" | "file", ... }, docs/call-records.md)';
const NO_COUNTERPART = 'LiteLLM has this setting; svc-router has nothing it could set';

/** LiteLLM settings that mean nothing here: refused with the reason rather than silently ignored. */
export const UNSUPPORTED_SVC_SETTINGS: Readonly<Record<string, string>> = {
  success_callback: CALLBACKS,
  failure_callback: CALLBACKS,
  service_callback: CALLBACKS,
  service_callbacks: CALLBACKS,
  callback_settings: CALLBACKS,
  langfuse_default_tags: CALLBACKS,
  turn_off_message_logging: NO_COUNTERPART,
  redact_user_api_key_info: NO_COUNTERPART,
  redact_messages_in_exceptions: NO_COUNTERPART,
  json_logs: NO_COUNTERPART,
  max_budget: 'a global budget has no counterpart: give virtual keys a `max_budget`',
  budget_duration: 'a global budget has no counterpart: give virtual keys a `max_budget`',
  force_ipv4: NO_COUNTERPART,
  modify_params: NO_COUNTERPART,
  ssl_verify: NO_COUNTERPART,
  telemetry: NO_COUNTERPART,
};

const CACHE_TYPES = ['local', 'redis'] as const;

/** LiteLLM's `cache_params`: the cache type, Redis's address, and `cache_kwargs`. */
const cacheParamsSchema = z
  .strictObject({
    type: z
      .string()
      .refine((type) => (CACHE_TYPES as readonly string[]).includes(type), {
        error: (issue) =>
          `cache type \`${String(issue.input)}\` is not supported; expected \`local\` (in memory) or \`redis\``,
      })
      .optional(),
    host: router.redis_host,
    port: router.redis_port,
    password: router.redis_password,
    ...router.cache_kwargs.unwrap().shape,
  })
  .superRefine((params, ctx) => {
    const redis = params.type === 'redis';
    if (redis && params.host === undefined)
      ctx.addIssue({ code: 'custom', path: ['host'], message: 'is required with `type: redis`' });
    for (const key of ['host', 'port', 'password'] as const)
      if (!redis && params[key] !== undefined)
        ctx.addIssue({ code: 'custom', path: [key], message: 'only with `type: redis`' });
  });

/** Each `svc_settings` key checked by the rules of the router setting it stands for. */
const svcSettingsSchema = z.strictObject({
  ...(Object.fromEntries(
    SVC_SETTING_NAMES.map((name) => [name, router[SVC_SETTINGS_TO_ROUTER[name]]]),
  ) as Record<string, z.ZodType>),
  cache_params: cacheParamsSchema.optional(),
});

// LiteLLM's lists of integration names: refused with the `callbacks` entries that do the same
const NAMED_CALLBACKS = new Set(['success_callback', 'failure_callback']);

/** Why a key `svc_settings` does not take is refused, unprefixed (the caller adds `svc_settings`). */
function refusal(key: string, value: unknown): string | undefined {
  if ((SVC_SETTING_NAMES as readonly string[]).includes(key)) return undefined;
  if (NAMED_CALLBACKS.has(key)) return `${key}: not supported: ${litellmCallbacksMessage(value)}`;
  if (UNSUPPORTED_SVC_SETTINGS[key]) return `${key}: not supported: ${UNSUPPORTED_SVC_SETTINGS[key]}`;
  if (SETTING_NAMES.includes(key)) return `${key}: a router setting; put it under router_settings`;
  const hint =
    didYouMean(key, SVC_SETTING_NAMES) ||
    `; svc_settings takes ${SVC_SETTING_NAMES.map((k) => `\`${k}\``).join(', ')} (any other router setting goes under router_settings)`;
  return `unknown setting \`${key}\`${hint}`;
}

/**
 * The router settings `svc_settings` stand for, values as written (`os.environ/` references are
 * resolved by the Router, as for `router_settings`). Throws one ConfigError listing every problem:
 * unknown keys (with "did you mean"), LiteLLM settings with no meaning here, and bad values named by
 * their `svc_settings` key.
 */
export function svcSettingsAsRouterSettings(
  svc: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv,
): Record<string, unknown> {
  const problems: string[] = [];
  const known: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(svc)) {
    const refused = refusal(key, value);
    if (refused) problems.push(refused);
    else known[key] = value;
  }
  let cacheType: string | undefined;
  try {
    const { data } = parseWithEnv(svcSettingsSchema, known, {
      what: 'svc_settings',
      names: SVC_SETTING_NAMES,
      env,
    });
    cacheType = (data.cache_params as { type?: string } | undefined)?.type;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  if (problems.length > 0) throw new ConfigError('svc_settings', problems);
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(known)) {
    if (key === 'cache_params') Object.assign(settings, cacheParamsAsRouterSettings(value, cacheType));
    else settings[SVC_SETTINGS_TO_ROUTER[key as SvcSettingName]] = value;
  }
  return settings;
}

/** `cache_params` (already checked) as `cache_kwargs` and, for `type: redis`, the `redis_*` settings. */
function cacheParamsAsRouterSettings(value: unknown, type: string | undefined): Record<string, unknown> {
  const { type: _type, host, port, password, ...kwargs } = value as Record<string, unknown>;
  const settings: Record<string, unknown> = {};
  if (Object.keys(kwargs).length > 0) settings.cache_kwargs = kwargs;
  if (type === 'redis') {
    settings.redis_host = host;
    if (port !== undefined) settings.redis_port = port;
    if (password !== undefined) settings.redis_password = password;
  }
  return settings;
}
