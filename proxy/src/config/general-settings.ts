import { isAbsolute, join, resolve } from 'node:path';
import { ConfigError } from '@svc/router';
import { z } from 'zod';
import { type PassThroughEndpoint, passThroughEndpointsSchema } from '../passthrough/settings.js';

const seconds = (max: number) => z.number().nonnegative().max(max);

// the length is all a message may say about a master key: its value is a secret
const masterKey = z.string().min(8, { error: 'must be at least 8 characters (it opens every admin route)' });
const databaseUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\//, { error: 'expected a postgres:// or postgresql:// URL' });

/** How far the upstream of a stream is read after its client left, to learn the answer's usage. */
export interface DisconnectRead {
  timeoutMs: number;
  maxBytes: number;
  /**
   * Aborted when a shutdown cuts the connections left at `drain_timeout`: a stream then stops reading on
   * at once (and is charged for what was delivered), so its spend row is written before the process exits.
   */
  cut?: AbortSignal | undefined;
}

/** `disconnect_read_timeout` and `disconnect_read_max_kb` left at their defaults. */
export const DEFAULT_DISCONNECT_READ: DisconnectRead = Object.freeze({
  timeoutMs: 5000,
  maxBytes: 256 * 1024,
});

/** `general_settings` of a proxy config file (CONTRACT 4; docs/proxy.md lists them). */
export const generalSettingsSchema = z.strictObject({
  master_key: masterKey.optional(),
  database_url: databaseUrl.optional(),
  database_schema: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, { error: 'letters, digits and _, not starting with a digit' })
    .optional(),
  data_dir: z.string().min(1).optional(),
  enable_jwt_auth: z.boolean().default(false),
  enable_oauth2_auth: z.boolean().default(false),
  svc_jwtauth: z.record(z.string(), z.unknown()).optional(),
  oauth2_token_info_endpoint: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  max_request_body_mb: z.number().positive().max(1024).default(10),
  key_cache_ttl: seconds(3600).default(10),
  spend_flush_interval: z.number().positive().max(60).default(0.5),
  /** Seconds a shutdown waits for calls in flight; under Kubernetes' default 30 s grace period. */
  drain_timeout: seconds(3600).default(25),
  /** After a client leaves a stream, the upstream is read on this long for the answer's usage. */
  disconnect_read_timeout: seconds(300).default(DEFAULT_DISCONNECT_READ.timeoutMs / 1000),
  /** ... and for at most this many KiB of the answer's events. */
  disconnect_read_max_kb: z
    .number()
    .int()
    .nonnegative()
    .max(1_048_576)
    .default(DEFAULT_DISCONNECT_READ.maxBytes / 1024),
  /**
   * Seconds a stream waits for a client that reads nothing (its socket's buffer full) before its
   * connection is closed, as nginx's `send_timeout`: the call then ends as one whose client left. 0: no limit.
   */
  send_timeout: seconds(3600).default(60),
  /** The proxy's JSON log lines at this level and above; `silent` writes none. */
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `GET /metrics` without the master key (for a scraper inside a trusted network). */
  metrics_public: z.boolean().default(false),
  /** An OTLP/HTTP collector's base URL: spans are exported there (`/v1/traces`). */
  otel_exporter_otlp_endpoint: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  /** `service.name` of exported spans. */
  otel_service_name: z.string().min(1).default('svc-router'),
  /** Routes forwarded to a provider as they are, with the gateway's keys, limits and spend. */
  pass_through_endpoints: passThroughEndpointsSchema.default([]),
});

export type GeneralSettings = z.output<typeof generalSettingsSchema>;

/** What the proxy runs with, from `general_settings` and the environment. */
export interface ProxySettings {
  /** `general_settings.master_key`, else `SVC_MASTER_KEY`; undefined: no admin. */
  masterKey: string | undefined;
  /** `general_settings.database_url`, else `DATABASE_URL`; undefined: embedded PGlite. */
  databaseUrl: string | undefined;
  databaseSchema: string | undefined;
  /** Where PGlite keeps its files. */
  dataDir: string;
  maxRequestBodyBytes: number;
  keyCacheTtlMs: number;
  spendFlushIntervalMs: number;
  drainTimeoutMs: number;
  /** How far the upstream of a stream is read after its client left (docs/proxy.md, what is charged). */
  disconnectRead: DisconnectRead;
  /** `send_timeout`: how long a stream waits for a client that reads nothing; 0: no limit. */
  sendTimeoutMs: number;
  logLevel: GeneralSettings['log_level'];
  metricsPublic: boolean;
  /** Where spans are exported; undefined: not exported by the proxy. */
  otlpEndpoint: string | undefined;
  otelServiceName: string;
  /** `pass_through_endpoints`, their `os.environ/` header values resolved. */
  passThrough: readonly PassThroughEndpoint[];
}

/** An environment fallback checked by its `general_settings` rule; named by its variable, never quoted. */
function fromEnv(
  env: NodeJS.ProcessEnv,
  name: string,
  rule: z.ZodType<string>,
  problems: string[],
): string | undefined {
  const value = env[name];
  if (!value) return undefined;
  const parsed = rule.safeParse(value);
  if (!parsed.success) problems.push(`${name}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return value;
}

/**
 * Settles the proxy's settings: config first, then the environment (`SVC_MASTER_KEY`, `DATABASE_URL`,
 * checked by the same rules), then defaults. `configDir` is what a relative `data_dir` resolves
 * against. Throws ConfigError naming a bad environment variable (never its value).
 */
export function resolveProxySettings(
  general: GeneralSettings,
  env: NodeJS.ProcessEnv,
  configDir: string,
): ProxySettings {
  const problems: string[] = [];
  const key = general.master_key ?? fromEnv(env, 'SVC_MASTER_KEY', masterKey, problems);
  const url = general.database_url ?? fromEnv(env, 'DATABASE_URL', databaseUrl, problems);
  if (problems.length > 0) throw new ConfigError('proxy environment', problems);
  const dataDir = general.data_dir
    ? isAbsolute(general.data_dir)
      ? general.data_dir
      : resolve(configDir, general.data_dir)
    : join(configDir, '.svc-router');
  return {
    masterKey: key,
    databaseUrl: url,
    databaseSchema: general.database_schema,
    dataDir,
    maxRequestBodyBytes: Math.floor(general.max_request_body_mb * 1024 * 1024),
    keyCacheTtlMs: general.key_cache_ttl * 1000,
    spendFlushIntervalMs: general.spend_flush_interval * 1000,
    drainTimeoutMs: general.drain_timeout * 1000,
    disconnectRead: {
      timeoutMs: general.disconnect_read_timeout * 1000,
      maxBytes: general.disconnect_read_max_kb * 1024,
    },
    sendTimeoutMs: general.send_timeout * 1000,
    logLevel: general.log_level,
    metricsPublic: general.metrics_public,
    otlpEndpoint: general.otel_exporter_otlp_endpoint,
    otelServiceName: general.otel_service_name,
    passThrough: general.pass_through_endpoints,
  };
}
