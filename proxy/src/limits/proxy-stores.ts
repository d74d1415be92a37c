import type { Store } from '@svc/router';
import { MemoryStore, RedisStore, StoreHealth, watchedStore, withLocalFallback } from '@svc/router';
import { parseSettings, redisOptionsFromSettings } from '@svc/router/config';

/** The state the proxy shares with other processes, as its parts use it. */
export interface ProxyStores {
  /**
   * The router's store: Redis when `router_settings` ask for it (watched once: the router logs each
   * outage and recovery, for itself and the rate limits). Without Redis none: the router keeps its
   * state in its own memory, where the response cache is bounded in bytes (`cache_kwargs.max_bytes`),
   * which it is not in a store given to it (a shared store's answers are bounded by its own keys).
   */
  shared: Store | undefined;
  /** What `rpm_limit`/`tpm_limit` count in: the shared store, or this process's memory while it fails. */
  limits: Store;
  /** Resolves when Redis answers, for `/health/readiness`; undefined without Redis. */
  ping: (() => Promise<void>) | undefined;
}

/**
 * The stores of a proxy. With Redis, a call is never refused because Redis is away: the limits count
 * in memory meanwhile (as a proxy without Redis does), and go back to the shared count when it answers.
 */
export function proxyStores(routerSettings: Record<string, unknown>, env: NodeJS.ProcessEnv): ProxyStores {
  const options = redisOptionsFromSettings(parseSettings(routerSettings, env));
  if (!options) return { shared: undefined, limits: new MemoryStore(), ping: undefined };
  const redis = new RedisStore(options);
  const shared = watchedStore(redis, new StoreHealth());
  return {
    shared,
    limits: withLocalFallback(shared),
    ping: async () => void (await redis.get('proxy:ready')),
  };
}
