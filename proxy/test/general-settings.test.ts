import { join } from 'node:path';
import { ConfigError } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { generalSettingsSchema, resolveProxySettings } from '../src/config/general-settings.js';

const defaults = generalSettingsSchema.parse({});

describe('general_settings', () => {
  it('fills in the defaults', () => {
    expect(defaults).toEqual({
      enable_jwt_auth: false,
      enable_oauth2_auth: false,
      max_request_body_mb: 10,
      key_cache_ttl: 10,
      spend_flush_interval: 0.5,
      drain_timeout: 25,
      disconnect_read_timeout: 5,
      disconnect_read_max_kb: 256,
      send_timeout: 60,
      log_level: 'info',
      metrics_public: false,
      otel_service_name: 'svc-router',
      pass_through_endpoints: [],
    });
  });

  it('settles times in milliseconds and the body limit in bytes', () => {
    const settings = resolveProxySettings(defaults, {}, '/etc/svc');
    expect(settings).toMatchObject({
      maxRequestBodyBytes: 10 * 1024 * 1024,
      keyCacheTtlMs: 10_000,
      spendFlushIntervalMs: 500,
      drainTimeoutMs: 25_000,
      disconnectRead: { timeoutMs: 5000, maxBytes: 256 * 1024 },
      sendTimeoutMs: 60_000,
    });
  });

  it('takes the master key and database URL from the config before the environment', () => {
    const general = generalSettingsSchema.parse({
      master_key: 'sk-config-0000',
      database_url: 'postgres://db/config',
    });
    const env = { SVC_MASTER_KEY: 'sk-env-00000', DATABASE_URL: 'postgres://db/env' };
    expect(resolveProxySettings(general, env, '/etc/svc')).toMatchObject({
      masterKey: 'sk-config-0000',
      databaseUrl: 'postgres://db/config',
    });
  });

  it('falls back to SVC_MASTER_KEY and DATABASE_URL', () => {
    const env = { SVC_MASTER_KEY: 'sk-env-00000', DATABASE_URL: 'postgresql://db/env' };
    expect(resolveProxySettings(defaults, env, '/etc/svc')).toMatchObject({
      masterKey: 'sk-env-00000',
      databaseUrl: 'postgresql://db/env',
    });
  });

  it('runs without a master key or database URL when neither is set (embedded database)', () => {
    expect(resolveProxySettings(defaults, { SVC_MASTER_KEY: '' }, '/etc/svc')).toMatchObject({
      masterKey: undefined,
      databaseUrl: undefined,
    });
  });

  it('refuses a short SVC_MASTER_KEY by name, never quoting it', () => {
    let error: unknown;
    try {
      resolveProxySettings(defaults, { SVC_MASTER_KEY: 'sk-abc', DATABASE_URL: 'mysql://x' }, '/etc/svc');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'SVC_MASTER_KEY: must be at least 8 characters (it opens every admin route)',
      'DATABASE_URL: expected a postgres:// or postgresql:// URL',
    ]);
    expect((error as ConfigError).message).not.toContain('sk-abc');
  });

  it('keeps the embedded database in .svc-router next to the config file', () => {
    expect(resolveProxySettings(defaults, {}, '/etc/svc').dataDir).toBe(join('/etc/svc', '.svc-router'));
  });

  it('resolves a relative data_dir against the config directory and keeps an absolute one', () => {
    const relative = generalSettingsSchema.parse({ data_dir: 'state/db' });
    const absolute = generalSettingsSchema.parse({ data_dir: '/var/lib/svc' });
    expect(resolveProxySettings(relative, {}, '/etc/svc').dataDir).toBe(join('/etc/svc', 'state/db'));
    expect(resolveProxySettings(absolute, {}, '/etc/svc').dataDir).toBe('/var/lib/svc');
  });

  it('refuses unknown keys and bad values', () => {
    const parsed = generalSettingsSchema.safeParse({
      master_key: 'short',
      oauth2_token_info_endpoint: 'ftp://x',
      drain_timeout: -1,
      master_keys: 'x',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.') || i.code).sort()).toEqual([
      'drain_timeout',
      'master_key',
      'oauth2_token_info_endpoint',
      'unrecognized_keys',
    ]);
  });
});
