import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseSettings } from '../../src/config/parse-settings.js';
import { ConfigError, RedisStore, Router, type RouterSettings } from '../../src/index.js';
import { resolveRedisOptions } from '../../src/stores/redis-options.js';
import { redisOptionsFromSettings } from '../../src/stores/store-settings.js';

const PASSWORD = 'hunter2-redis-secret';
const list = [
  { model_name: 'gpt', svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test-0000', mock_response: 'hi' } },
];

const optionsFrom = (settings: RouterSettings, env: NodeJS.ProcessEnv = {}) =>
  redisOptionsFromSettings(parseSettings(settings, env));

function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the store the settings ask for', () => {
  it('is none (a MemoryStore) without redis_* settings', () => {
    expect(optionsFrom({})).toBeUndefined();
  });

  it('connects by redis_url, with the namespace from cache_kwargs', () => {
    expect(
      optionsFrom({ redis_url: 'redis://127.0.0.1:6379/0', cache_kwargs: { namespace: 'prod' } }),
    ).toEqual({
      url: 'redis://127.0.0.1:6379/0',
      namespace: 'prod',
    });
  });

  it('connects by redis_host, redis_port and redis_password, read from the environment', () => {
    const env = { REDIS_HOST: 'redis.internal', REDIS_PORT: '6380', REDIS_PASSWORD: PASSWORD };
    const settings = {
      redis_host: 'os.environ/REDIS_HOST',
      redis_port: 'os.environ/REDIS_PORT',
      redis_password: 'os.environ/REDIS_PASSWORD',
    } as RouterSettings;
    expect(optionsFrom(settings, env)).toEqual({ host: 'redis.internal', port: 6380, password: PASSWORD });
  });

  it('connects to a cluster by redis_startup_nodes, ports as numbers or digits', () => {
    const nodes = [
      { host: '10.0.0.1', port: 7000 },
      { host: '10.0.0.2', port: '7001' },
    ];
    expect(optionsFrom({ redis_startup_nodes: nodes as never, redis_password: PASSWORD })).toEqual({
      cluster: {
        startupNodes: [
          { host: '10.0.0.1', port: 7000 },
          { host: '10.0.0.2', port: 7001 },
        ],
      },
      password: PASSWORD,
    });
  });
});

describe('redis_* settings that cannot be used fail at construction', () => {
  it('two ways to reach Redis', () => {
    const error = configErrorOf(() => new Router(list, { redis_url: 'redis://a:6379', redis_host: 'b' }));
    expect(error.problems).toEqual(['redis_url, redis_host: give one way to reach Redis, not 2']);
  });

  it('a port or password with nowhere to connect', () => {
    const error = configErrorOf(() => new Router(list, { redis_port: 6380, redis_password: PASSWORD }));
    expect(error.problems).toEqual([
      'redis_port: set redis_host, redis_url or redis_startup_nodes too (it does nothing alone)',
      'redis_password: set redis_host, redis_url or redis_startup_nodes too (it does nothing alone)',
    ]);
    expect(error.message).not.toContain(PASSWORD);
  });

  it('a redis_port next to a URL or startup nodes, which give their own ports', () => {
    const error = configErrorOf(() => new Router(list, { redis_url: 'redis://h:6379', redis_port: 6380 }));
    expect(error.problems).toEqual(['redis_port: only used with redis_host (redis_url gives its own ports)']);
  });

  it('a redis_url that is not a Redis URL, never quoted (it may hold a password)', () => {
    const url = `http://user:${PASSWORD}@host:6379`;
    const error = configErrorOf(() => new Router(list, { redis_url: url }));
    expect(error.problems).toEqual([
      'redis_url: unsupported scheme `http:`; expected redis://[[user]:password@]host[:port][/db] or rediss://...',
    ]);
    expect(error.message).not.toContain(PASSWORD);
  });

  it('a port out of range', () => {
    const error = configErrorOf(() => new Router(list, { redis_host: 'h', redis_port: 70_000 }));
    expect(error.problems).toEqual(['redis_port: expected an integer from 1 to 65535']);
  });

  it('a namespace with braces', () => {
    const error = configErrorOf(
      () => new Router(list, { redis_host: 'h', cache_kwargs: { namespace: '{x}' } }),
    );
    expect(error.problems).toEqual(['cache_kwargs.namespace: must not contain `{` or `}`']);
  });

  it('an empty list of startup nodes', () => {
    const error = configErrorOf(() => new Router(list, { redis_startup_nodes: [] }));
    expect(error.problems[0]).toMatch(/^redis_startup_nodes: /);
  });
});

describe('RedisStore options', () => {
  it('fills in the defaults', () => {
    const o = resolveRedisOptions({});
    expect(o).toMatchObject({
      target: { kind: 'host', host: '127.0.0.1', port: 6379 },
      namespace: 'svc-router',
      commandTimeoutMs: 250,
      connectTimeoutMs: 1_000,
      backoffMs: 1_000,
      maxPending: 10_000,
      shown: '127.0.0.1:6379',
    });
  });

  it('names every bad option, never quoting the URL', () => {
    const error = configErrorOf(
      () =>
        new RedisStore({
          url: `redis://:${PASSWORD}@host:6379/not-a-db`,
          host: 'other',
          commandTimeoutMs: 0,
          maxPending: -1,
          namespace: '',
        }),
    );
    expect(error.problems).toEqual([
      'give one of url, host/port or cluster, not url and host/port',
      'url: the path must be a database number (`/0`)',
      'namespace: must not be empty',
      'commandTimeoutMs: expected a positive number of at most 60000',
      'maxPending: expected a positive number of at most 1000000',
    ]);
    expect(error.message).not.toContain(PASSWORD);
  });

  it('shows where it connects without the password', () => {
    expect(resolveRedisOptions({ url: `rediss://u:${PASSWORD}@redis.internal:6380/1` }).shown).toBe(
      'redis.internal:6380',
    );
    expect(
      resolveRedisOptions({
        cluster: {
          startupNodes: [
            { host: 'n1', port: 7000 },
            { host: 'n2', port: 7001 },
          ],
        },
      }).shown,
    ).toBe('cluster n1:7000 (+1)');
  });
});

describe('secrets in printed settings', () => {
  it('masks redis_password and the password in redis_url when the settings are inspected', () => {
    const settings = parseSettings({
      redis_url: `redis://:${PASSWORD}@h:6379`,
      cache_kwargs: { namespace: 'n' },
    });
    const withPassword = parseSettings({ redis_host: 'h', redis_password: PASSWORD });
    const text = inspect([settings, withPassword], { depth: 5 });
    expect(text).not.toContain(PASSWORD);
    expect(text).toContain("redis_url: 'redis://:****@h:6379'");
    expect(text).toContain("redis_password: '****cret'");
    expect(settings.redis_url).toBe(`redis://:${PASSWORD}@h:6379`); // the value itself is unchanged
  });
});
