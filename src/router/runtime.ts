import type { EventEmitter } from 'eventemitter3';
import { ConcurrencyLimiter } from '../checks/concurrency-limiter.js';
import { UsageCounters } from '../checks/usage-counters.js';
import { type CooldownSettings, CooldownTracker } from '../cooldown/cooldown-tracker.js';
import type { Logger } from '../logging/logger.js';
import { createProviderRegistry, type ProviderRegistry } from '../providers/registry.js';
import { HttpClient } from '../providers/shared/http-client.js';
import type { ProviderAdapter } from '../providers/shared/provider-adapter.js';
import { createProviderRuntime, type OwnedProviderRuntime } from '../providers/shared/provider-runtime.js';
import { MemoryStore } from '../stores/memory-store.js';
import type { Store } from '../stores/store.js';
import type { RandomSource, RoutingStrategy, StrategyDeps } from '../strategies/strategy.js';
import type { ModelGroup } from '../types/index.js';
import { CallObserver } from './call-observer.js';
import { Executor } from './executor.js';
import { OutcomeChannel } from './outcomes.js';
import type { RouterEvents } from './router-events.js';

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
   * several routers one store and they agree on cooldowns. @default a MemoryStore private to this router
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
}

/** The settings the runtime is built with, once: later changes of these apply to new routers only. */
export interface RuntimeSettings {
  /** `max_connections_per_origin`. */
  connections: number;
}

/** What the runtime's listeners read of the config in force. */
export interface CurrentConfig {
  cooldown: CooldownSettings;
  logger: Logger;
  /** Whether calls of a group, chosen by this strategy, count their tokens per minute. */
  countsUsage(group: ModelGroup, strategy: RoutingStrategy | undefined): boolean;
}

/**
 * Everything a router keeps for its whole life, built once and released by `close()`: store, clock,
 * random source, HTTP pools, cooldown tracker, in-flight counts, strategy instances and provider auth
 * caches. Settings changes swap the router's config; they never rebuild this, so counts, cooldowns and
 * what strategies learned carry over.
 */
export class RouterRuntime {
  readonly random: RandomSource;
  readonly now: () => number;
  readonly env: NodeJS.ProcessEnv;
  readonly store: Store;
  readonly http: HttpClient;
  readonly executor: Executor;
  readonly tracker: CooldownTracker;
  readonly limiter = new ConcurrencyLimiter();
  readonly outcomes = new OutcomeChannel();
  /** Requests and tokens per deployment per minute, in the store (`rpm`/`tpm` limits, usage strategies). */
  readonly usage: UsageCounters;
  readonly observer: CallObserver;
  /** Adapters by provider and prefix. */
  readonly adapters: ProviderRegistry;
  /** The adapters' per-router state (auth caches, fetched secrets). */
  readonly providers: OwnedProviderRuntime = createProviderRuntime();
  readonly #strategies = new Map<string, RoutingStrategy>();
  /** The logger the user injected, if any (the config decides the rest). */
  readonly injectedLogger: Logger | undefined;
  #current: (() => CurrentConfig) | undefined;
  #storeErrorLoggedAt = Number.NEGATIVE_INFINITY;
  // streams returned but dropped unread: their slot comes back when they are collected
  readonly #abandoned = new FinalizationRegistry<() => void>((release) => release());

  constructor(deps: RouterDependencies, settings: RuntimeSettings, emitter: EventEmitter<RouterEvents>) {
    this.random = deps.random ?? Math.random;
    this.now = deps.now ?? Date.now;
    this.env = deps.env ?? process.env;
    this.store = deps.store ?? new MemoryStore();
    this.usage = new UsageCounters(this.store, (error) => this.#storeError(error));
    this.adapters = createProviderRegistry(deps.providers ?? []);
    this.injectedLogger = deps.logger;
    this.http = new HttpClient({ connections: settings.connections });
    this.executor = new Executor(this.http);
    this.observer = new CallObserver(emitter, []);
    this.tracker = new CooldownTracker({
      store: this.store,
      shared: deps.store !== undefined,
      onCooldown: (event) => {
        this.#current?.().logger.info(
          `deployment ${event.model_id} (${event.model_group}) cooled for ${event.cooldown_time} s after a ${event.status}`,
          { ...event },
        );
        if (emitter.listenerCount('cooldown') === 0) return;
        try {
          emitter.emit('cooldown', event);
        } catch {
          // a listener's failure never changes a call
        }
      },
      onStoreError: (error) => this.#storeError(error),
    });
  }

  /** What strategies are built with. */
  get strategyDeps(): StrategyDeps {
    return {
      random: this.random,
      now: this.now,
      store: this.store,
      inFlight: (id) => this.limiter.inFlight(id),
      inFlightCounter: (id) => this.limiter.counter(id),
    };
  }

  /**
   * The strategy instance kept under `key`, built on first use: it survives settings changes. `fresh`
   * replaces a kept one with a new instance (its state starts over).
   */
  strategy(key: string, create: () => RoutingStrategy, fresh = false): RoutingStrategy {
    let strategy = fresh ? undefined : this.#strategies.get(key);
    if (!strategy) {
      strategy = create();
      this.#strategies.set(key, strategy);
    }
    return strategy;
  }

  /** Forgets the strategy instances not under these keys (the config no longer uses them). */
  retainStrategies(keys: ReadonlySet<string>): void {
    for (const key of this.#strategies.keys()) if (!keys.has(key)) this.#strategies.delete(key);
  }

  /** Runs `release` if `target` is garbage-collected before `unwatch(target)`. */
  watch(target: object, release: () => void): void {
    this.#abandoned.register(target, release, target);
  }

  unwatch(target: object): void {
    this.#abandoned.unregister(target);
  }

  // once a minute at most: an unreachable store must not flood the log with one line per call
  #storeError(error: unknown): void {
    const now = this.now();
    if (now - this.#storeErrorLoggedAt < 60_000) return;
    this.#storeErrorLoggedAt = now;
    const reason = error instanceof Error ? error.message : String(error);
    this.#current?.().logger.warn(`shared store failed (${reason}); serving on this router's own state`);
  }

  /** Wires the outcome channel: slots, cooldowns, strategies, events and the log all learn from it. */
  listen(current: () => CurrentConfig): void {
    this.#current = current;
    const { tracker, limiter, observer, now, usage } = this;
    this.outcomes.listen((o) => {
      const id = o.endpoint.deployment.id;
      limiter.release(id);
      if (o.kind === 'success') tracker.success(id, now());
      else if (o.kind === 'aborted') tracker.released(id);
      else {
        const subject = {
          id,
          group: o.group.name,
          cooldownMs: o.endpoint.cooldownMs,
          coolable: o.group.coolable,
        };
        tracker.failure(subject, o.error!, now(), current().cooldown);
      }
    });
    this.outcomes.listen((o) => {
      if (o.kind === 'aborted' || !o.strategy?.onOutcome) return;
      o.strategy.onOutcome({
        deployment: o.endpoint.deployment,
        model: o.group.name,
        ok: o.kind === 'success',
        latencyMs: o.endMs - o.startMs,
        timeToFirstTokenMs: o.firstMs === undefined ? undefined : o.firstMs - o.startMs,
        stream: o.stream,
        totalTokens: o.usage?.total_tokens,
      });
    });
    this.outcomes.listen((o) => {
      const tokens = o.usage?.total_tokens;
      if (tokens && current().countsUsage(o.group, o.strategy))
        usage.countTokens(o.endpoint.deployment.id, tokens, now());
    });
    this.outcomes.listen((o) => {
      if (o.kind === 'failure') observer.failed(o, o.error!);
      else if (o.kind === 'success') observer.succeeded(o, o.response ?? null, o.cost ?? 0, o.attempts);
    });
    this.outcomes.listen((o) => {
      if (o.kind !== 'failure') return;
      const { deployment } = o.endpoint;
      current().logger.debug(
        `attempt on ${deployment.id} (${deployment.modelName}) failed: ${o.error!.message}`,
        {
          model_group: deployment.modelName,
          model_id: deployment.id,
          status: o.error!.status,
          code: o.error!.code,
          latency_ms: o.endMs - o.startMs,
        },
      );
    });
  }

  /** Releases every connection pool, cache and the store (when the router made it). */
  async close(ownsStore: boolean): Promise<void> {
    this.providers.close();
    this.#strategies.clear();
    await this.http.close();
    if (ownsStore) await this.store.close?.();
  }
}
