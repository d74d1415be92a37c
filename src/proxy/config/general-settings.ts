import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';

const seconds = (max: number) => z.number().nonnegative().max(max);

/** `general_settings` of a proxy config file (CONTRACT 4; docs/proxy.md lists them). */
export const generalSettingsSchema = z.strictObject({
  master_key: z.string().min(8, { error: 'a master key of at least 8 characters' }).optional(),
  database_url: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'expected a postgres:// or postgresql:// URL' })
    .optional(),
  database_schema: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, { error: 'letters, digits and _, not starting with a digit' })
    .optional(),
  data_dir: z.string().min(1).optional(),
  enable_jwt_auth: z.boolean().default(false),
  enable_oauth2_auth: z.boolean().default(false),
  svc_jwtauth: z.record(z.string(), z.unknown()).optional(),
  oauth2_token_info_endpoint: z.string().url().optional(),
  max_request_body_mb: z.number().positive().max(1024).default(10),
  key_cache_ttl: seconds(3600).default(10),
  spend_flush_interval: z.number().positive().max(60).default(0.5),
  drain_timeout: seconds(3600).default(30),
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
}

/** Settles the proxy's settings: config first, then the environment, then defaults. */
export function resolveProxySettings(
  general: GeneralSettings,
  env: NodeJS.ProcessEnv,
  configDir: string,
): ProxySettings {
  const dataDir = general.data_dir
    ? isAbsolute(general.data_dir)
      ? general.data_dir
      : resolve(configDir, general.data_dir)
    : join(configDir, '.svc-router');
  return {
    masterKey: general.master_key ?? (env.SVC_MASTER_KEY || undefined),
    databaseUrl: general.database_url ?? (env.DATABASE_URL || undefined),
    databaseSchema: general.database_schema,
    dataDir,
    maxRequestBodyBytes: Math.floor(general.max_request_body_mb * 1024 * 1024),
    keyCacheTtlMs: general.key_cache_ttl * 1000,
    spendFlushIntervalMs: general.spend_flush_interval * 1000,
    drainTimeoutMs: general.drain_timeout * 1000,
  };
}
