import type { Tracer } from '@opentelemetry/api';
import type { Logger } from '../logging/logger.js';
import type { ProviderAdapter } from '../providers/shared/provider-adapter.js';
import type { Store } from '../stores/store.js';
import type { RandomSource } from '../strategies/strategy.js';

/** What the router takes from its environment; tests pass a seeded `random` and a fake `now`. */
export interface RouterDependencies {
  /** Uniform random numbers in [0, 1) for weighted selection and backoff jitter. @default Math.random */
  random?: RandomSource;
  /** Where `os.environ/NAME` references and provider key variables are read. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Milliseconds clock. @default Date.now */
  now?: () => number;
  /**
   * Where state shared with other routers lives (cooldowns; later usage counters and the cache). Give
   * several routers one store and they agree on cooldowns. It wins over the `redis_*` settings, and the
   * router never closes it.
   * @default a RedisStore when the `redis_*` settings ask for one, else a MemoryStore private to this router
   */
  store?: Store;
  /**
   * Provider adapters of your own, next to the built-in ones: a new provider with its prefixes, or a
   * replacement for a built-in. Checked at construction. @default none
   */
  providers?: readonly ProviderAdapter[];
  /**
   * Where the router logs (failures, cooldowns, fallbacks, skipped stream events, store trouble), its
   * fields redacted. @default silent, unless `set_verbose` or `debug_level: 'DEBUG'` log to stderr
   */
  logger?: Logger;
  /**
   * Where the router's spans go (one per call, a child per attempt). @default the global tracer of
   * `@opentelemetry/api`: spans record nothing until an OpenTelemetry SDK is registered
   */
  tracer?: Tracer;
}
