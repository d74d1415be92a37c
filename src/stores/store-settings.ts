import type { ResolvedSettings } from '../config/settings-schema.js';
import { ConfigError } from '../errors/config-error.js';
import type { RedisStoreOptions } from './redis-options.js';

/** The settings that choose the router's store. */
export type StoreSettings = Pick<
  ResolvedSettings,
  'redis_host' | 'redis_port' | 'redis_password' | 'redis_url' | 'redis_startup_nodes' | 'cache_kwargs'
>;

/**
 * The RedisStore the settings ask for, or undefined for none (a MemoryStore then): `redis_url`, or
 * `redis_host` (+ `redis_port`), or `redis_startup_nodes` for a cluster, each with `redis_password`;
 * keys under `cache_kwargs.namespace`. Throws a ConfigError when they contradict each other (two ways
 * to connect, or a port or password with nowhere to connect); no value is quoted.
 */
export function redisOptionsFromSettings(settings: StoreSettings): RedisStoreOptions | undefined {
  const { redis_host, redis_port, redis_password, redis_url, redis_startup_nodes } = settings;
  const ways = [
    redis_url !== undefined && 'redis_url',
    redis_host !== undefined && 'redis_host',
    redis_startup_nodes !== undefined && 'redis_startup_nodes',
  ].filter((w): w is string => typeof w === 'string');
  const problems: string[] = [];
  if (ways.length > 1) problems.push(`${ways.join(', ')}: give one way to reach Redis, not ${ways.length}`);
  if (ways.length === 0) {
    for (const [key, value] of [
      ['redis_port', redis_port],
      ['redis_password', redis_password],
    ] as const)
      if (value !== undefined)
        problems.push(`${key}: set redis_host, redis_url or redis_startup_nodes too (it does nothing alone)`);
  }
  if (redis_port !== undefined && ways.length === 1 && ways[0] !== 'redis_host')
    problems.push(`redis_port: only used with redis_host (${ways[0]} gives its own ports)`);
  if (problems.length > 0) throw new ConfigError('router settings', problems);
  if (ways.length === 0) return undefined;
  const common = {
    ...(redis_password !== undefined && { password: redis_password }),
    ...(settings.cache_kwargs?.namespace !== undefined && { namespace: settings.cache_kwargs.namespace }),
  };
  if (redis_url !== undefined) return { url: redis_url, ...common };
  if (redis_startup_nodes !== undefined) return { cluster: { startupNodes: redis_startup_nodes }, ...common };
  return { host: redis_host, ...(redis_port !== undefined && { port: redis_port }), ...common };
}

/** Whether two settings ask for the same store (the store is built once, with the router). */
export function sameStoreSettings(a: StoreSettings, b: StoreSettings): boolean {
  const key = (s: StoreSettings) =>
    JSON.stringify([
      s.redis_host,
      s.redis_port,
      s.redis_password,
      s.redis_url,
      s.redis_startup_nodes,
      s.cache_kwargs?.namespace,
    ]);
  return key(a) === key(b);
}
