import { type Tracer, trace } from '@opentelemetry/api';
import type { EventEmitter } from 'eventemitter3';
import type { AlertingSettings } from '../alerting/alert.js';
import { Alerter } from '../alerting/alerter.js';
import { failedCallAlert, outcomeAlert } from '../alerting/call-alerts.js';
import { type AnswerStore, Flights, memoryAnswers, storeAnswers } from '../cache/response-cache.js';
import { ConcurrencyLimiter } from '../checks/concurrency-limiter.js';
import { requestedRegion } from '../checks/region.js';
import { UsageCounters } from '../checks/usage-counters.js';
import { type CooldownSettings, CooldownTracker } from '../cooldown/cooldown-tracker.js';
import type { NoDeploymentsAvailableError } from '../errors/classes.js';
import type { RouterError } from '../errors/router-error.js';
import { type Logger, silentLogger } from '../logging/logger.js';
import { createProviderRegistry, type ProviderRegistry } from '../providers/registry.js';
import { HttpClient } from '../providers/shared/http-client.js';
import type { CallWarning } from '../providers/shared/provider-adapter.js';
import { createProviderRuntime, type OwnedProviderRuntime } from '../providers/shared/provider-runtime.js';
import { CallRecords } from '../records/call-records.js';
import { DeadlineQueue } from '../shared/deadline-queue.js';
import { MemoryStore } from '../stores/memory-store.js';
import type { RedisStoreOptions } from '../stores/redis-options.js';
import { RedisStore } from '../stores/redis-store.js';
import type { Store } from '../stores/store.js';
import { healthOf, StoreHealth, type StoreHealthEvents, watchedStore } from '../stores/store-health.js';
import type { RandomSource, RoutingStrategy, StrategyDeps } from '../strategies/strategy.js';
import type { ModelGroup } from '../types/index.js';
import type { Call } from './call.js';
import { CallObserver } from './call-observer.js';
import { emitSafely } from './emit-safely.js';
import { Executor, type ExecutorRuns, executorRuns } from './executor.js';
import type { LatencyWindows } from './latency-window.js';
import { noDeploymentsError } from './no-deployments.js';
import { recordAttemptSpan } from './observability/attempt-span.js';
import { RouterMetrics } from './observability/router-metrics.js';
import { OutcomeChannel } from './outcomes.js';
import type { RouterDependencies } from './router-dependencies.js';
import type { RouterEvents } from './router-events.js';

export type { RouterDependencies };

/** The settings the runtime is built with, once: later changes of these apply to new routers only. */
export interface RuntimeSettings {
  /** `max_connections_per_origin`. */
  connections: number;
  /** The RedisStore the `redis_*` settings ask for (used when no store is injected). */
  redis?: RedisStoreOptions | undefined;
}

/** What `watch` watches: a result its caller may drop without reading. */
interface Watched {
  readonly started: boolean;
}

/** What the runtime (its listeners, alerts) reads of the config in force, each time it needs it. */
export interface CurrentConfig {
  cooldown: CooldownSettings;
  logger: Logger;
  settings: { alerting_config?: AlertingSettings | undefined };
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
  /** The executor's operations as the call path runs them. */
  readonly runs: ExecutorRuns;
  readonly tracker: CooldownTracker;
  readonly limiter = new ConcurrencyLimiter();
  readonly outcomes = new OutcomeChannel();
  /** Running counts behind `router.metrics()`. */
  readonly metrics = new RouterMetrics();
  readonly tracer: Tracer;
  /** Requests and tokens per deployment per minute, in the store (`rpm`/`tpm` limits, usage strategies). */
  readonly usage: UsageCounters;
  readonly observer: CallObserver;
  /** The `callbacks` destinations' queues (none until configured). */
  readonly records: CallRecords;
  /** Adapters by provider and prefix. */
  readonly adapters: ProviderRegistry;
  /** The adapters' per-router state (auth caches, fetched secrets). */
  readonly providers: OwnedProviderRuntime = createProviderRuntime();
  /** Every plain call's timeout, one timer per duration (a timer per call costs more than the rest of its deadline's work). */
  readonly deadlines = new DeadlineQueue();
  readonly #strategies = new Map<string, RoutingStrategy>();
  /** The logger the user injected, if any (the config decides the rest). */
  readonly injectedLogger: Logger | undefined;
  /** Deployments (by model_id) already named in the unpriced warning: each is named once per router. */
  readonly unpricedWarned = new Set<string>();
  readonly #alerter: Alerter;
  readonly #emitter: EventEmitter<RouterEvents>;
  #current: (() => CurrentConfig) | undefined;
  /** Whether the store may be shared with other routers (given, or built on Redis). */
  readonly #shared: boolean;
  #answers: { key: string; store: AnswerStore } | undefined;
  /** Observed latencies per group, for `hedge_after: "p95"`: kept across settings changes. */
  readonly latencies: LatencyWindows = new Map();
  /** Identical cache misses in flight. */
  readonly flights = new Flights();
  // streams returned but dropped unread: their slot comes back when they are collected
  readonly #abandoned = new FinalizationRegistry<() => void>((release) => release());
  // streams returned this turn, registered only if still unread after it (see `watch`)
  #returned: Array<{ target: object; token: Watched; release: () => void }> = [];

  constructor(deps: RouterDependencies, settings: RuntimeSettings, emitter: EventEmitter<RouterEvents>) {
    this.#emitter = emitter;
    this.random = deps.random ?? Math.random;
    this.now = deps.now ?? Date.now;
    this.env = deps.env ?? process.env;
    this.store = this.#storeFor(deps.store, settings.redis, emitter);
    this.#shared = deps.store !== undefined || settings.redis !== undefined;
    this.usage = new UsageCounters(this.store, () => undefined); // the store's health watch reports outages
    this.adapters = createProviderRegistry(deps.providers ?? []);
    this.injectedLogger = deps.logger;
    this.tracer = deps.tracer ?? trace.getTracer('@svc/router');
    this.http = new HttpClient({ connections: settings.connections });
    this.executor = new Executor(this.http);
    this.runs = executorRuns(this.executor);
    this.observer = new CallObserver(emitter, []);
    this.records = new CallRecords((message) => this.#current?.().logger.warn(message));
    this.#alerter = new Alerter({
      settings: () => this.#current?.().settings.alerting_config,
      logger: () => this.#current?.().logger ?? silentLogger,
      emit: (alert) => emitSafely(emitter, 'alert', () => alert),
      secrets: () => this.providers.secrets(),
    });
    this.tracker = new CooldownTracker({
      store: this.store,
      shared: this.#shared,
      onCooldown: (event) => {
        this.metrics.cooldown(event.model_id, event.model_group);
        this.#current?.().logger.info(
          `deployment ${event.model_id} (${event.model_group}) cooled for ${event.cooldown_time} s after a ${event.status}`,
          { ...event },
        );
        emitSafely(emitter, 'cooldown', () => event);
      },
    });
  }

  /**
   * The injected store, else a RedisStore the settings ask for, else a private MemoryStore. A shared
   * store is watched: its first failure after a healthy period emits one `error` event and one log line
   * (calls go on with this router's own state meanwhile), and its recovery is logged. A store already
   * watched (the proxy's, shared with its rate limits) keeps its one watch: the router listens to it.
   */
  #storeFor(
    injected: Store | undefined,
    redis: RedisStoreOptions | undefined,
    emitter: EventEmitter<RouterEvents>,
  ): Store {
    const store = injected ?? (redis ? new RedisStore(redis) : undefined);
    if (!store) return new MemoryStore();
    const events = this.#storeEvents(emitter);
    const health = healthOf(store);
    if (!health) return watchedStore(store, new StoreHealth(events));
    health.listen(events);
    return store;
  }

  #storeEvents(emitter: EventEmitter<RouterEvents>): StoreHealthEvents {
    return {
      failure: () => this.metrics.storeError(),
      outage: (error) => {
        const reason = error instanceof Error ? error.message : String(error);
        this.#current?.().logger.warn(
          `shared store failed (${reason}); serving on this router's own state until it answers again`,
        );
        emitSafely(emitter, 'error', () => ({ source: 'store', error }));
      },
      recovered: (downMs) =>
        this.#current?.().logger.info(
          `shared store answers again after ${(downMs / 1000).toFixed(1)} s; shared state resumes`,
        ),
    };
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

  /**
   * The response cache's answers: in the store when it is shared (routers on one store, or Redis, share
   * answers), else in memory bounded by entries and bytes. Kept across settings changes unless its
   * bounds change.
   */
  answers(maxEntries: number, maxBytes: number): AnswerStore {
    const key = this.#shared ? 'store' : `memory:${maxEntries}:${maxBytes}`;
    if (this.#answers?.key !== key) {
      const store = this.#shared
        ? storeAnswers(this.store, () => undefined) // the store's health watch reports outages
        : memoryAnswers(maxEntries, maxBytes);
      this.#answers = { key, store };
    }
    return this.#answers.store;
  }

  /** Forgets the strategy instances not under these keys (the config no longer uses them). */
  retainStrategies(keys: ReadonlySet<string>): void {
    for (const key of this.#strategies.keys()) if (!keys.has(key)) this.#strategies.delete(key);
  }

  /**
   * Runs `release` if `target` is garbage-collected before `unwatch(token)`, when it is still unread
   * (`token.started` false) after the turn of the event loop it was returned in. Nearly every caller
   * starts reading at once, and V8 keeps every object a FinalizationRegistry watches alive through
   * young-generation collections (measured: registering each stream promoted most of its objects to
   * the old generation, 155 MB per 22,000 streams against 40 MB without), so a stream read at once is
   * never registered: one its caller drops part-way is settled by its `stream_timeout` instead.
   * `release` must not hold `target`, or it is never collected.
   */
  watch(target: object, token: Watched, release: () => void): void {
    if (this.#returned.push({ target, token, release }) === 1) setImmediate(this.#registerUnread);
  }

  unwatch(token: Watched): void {
    this.#abandoned.unregister(token);
  }

  readonly #registerUnread = (): void => {
    const returned = this.#returned;
    this.#returned = [];
    for (const { target, token, release } of returned)
      if (!token.started) this.#abandoned.register(target, release, token);
  };

  /** Wires the outcome channel: slots, cooldowns, strategies, events and the log all learn from it. */
  listen(current: () => CurrentConfig): void {
    this.#current = current;
    const { tracker, limiter, observer, now, usage, metrics, tracer } = this;
    // first: a cooldown the tracker's listener raises is counted on the deployment's entry
    this.outcomes.listen((o) => metrics.record(o));
    this.outcomes.listen((o) => {
      if (o.trace) recordAttemptSpan(tracer, o);
    });
    this.outcomes.listen((o) => {
      if (o.kind === 'cache_hit') return; // no slot was taken, nothing was learned
      const id = o.endpoint.deployment.id;
      limiter.release(id);
      if (o.kind === 'success') tracker.success(id, now());
      else if (o.kind === 'aborted') tracker.released(id);
      else {
        const at = now();
        const subject = {
          id,
          group: o.group.name,
          cooldownMs: o.endpoint.cooldownMs,
          coolable: o.group.coolable,
          peers: o.group.ids,
        };
        tracker.failure(subject, o.error!, at, current().cooldown);
      }
    });
    this.outcomes.listen((o) => {
      if (o.kind === 'aborted' || o.kind === 'cache_hit' || !o.strategy?.onOutcome) return;
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
        usage.countTokens(o.endpoint.deployment, tokens, now());
    });
    this.outcomes.listen((o) => {
      if (o.kind === 'failure') observer.failed(o, o.error!);
      else if (o.kind === 'success' || o.kind === 'cache_hit')
        observer.succeeded(o, o.response ?? null, o.cost ?? 0, o.attempts);
    });
    this.outcomes.listen((o) => {
      const alerting = current().settings.alerting_config;
      const alert = alerting && outcomeAlert(o, alerting, now());
      if (alert) this.#alerter.raise(alert, [o.endpoint.target.apiKey, ...o.endpoint.target.secrets]);
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

  /** Emits a router event when someone listens (`emitSafely`). */
  emit<E extends keyof RouterEvents>(name: E, event: () => Parameters<RouterEvents[E]>[0]): void {
    emitSafely(this.#emitter, name, event);
  }

  /**
   * The contract's "no deployments" error for a group (CONTRACT 2.5): try again in `seconds` when the
   * caller knows better (per-minute limits), else when its first deployment's cooldown ends.
   */
  noDeployments(
    group: ModelGroup,
    request: Readonly<Record<string, unknown>>,
    preCallChecks: boolean,
    seconds?: number,
  ): NoDeploymentsAvailableError {
    const wait = seconds ?? this.tracker.secondsUntilAvailable(group.ids, this.now());
    return noDeploymentsError(group.name, wait, preCallChecks, requestedRegion(request));
  }

  /**
   * A call moved to a fallback group: logged, counted, and emitted as `fallback`, except a broken
   * stream's continuation (`resumed`), whose moves the resumed stream tells as one event.
   */
  fellBack(from: string, to: string, error: RouterError, resumed: boolean): void {
    this.#current?.().logger.info(`falling back from ${from} to ${to}: ${error.message}`, {
      from,
      to,
      status: error.status,
    });
    this.metrics.fallback(from, to);
    if (!resumed) this.emit('fallback', () => ({ from, to, error }));
  }

  /** What a call skipped without failing (a malformed stream event): logged and emitted as `warning`. */
  readonly warn = (warning: CallWarning): void => {
    this.#current?.().logger.warn(warning.message, { code: warning.code });
    this.emit('warning', () => warning);
  };

  /** A call failed for good (after its retries and fallbacks): one `llm_exception` alert when alerting is on. */
  callFailed(call: Call<unknown>, error: unknown): void {
    const alerting = this.#current?.().settings.alerting_config;
    if (!alerting) return;
    const { model, stream, signal, startMs } = call;
    const { attempts, failures, endpoint } = call.history;
    // the group of the last attempt (a fallback's), else the one asked for
    const group = endpoint?.deployment.modelName ?? call.group.name;
    const facts = { model, group, stream, signal, attempts, failures, startMs };
    const alert = failedCallAlert(facts, error, this.now());
    if (alert) this.#alerter.raise(alert, [endpoint?.target.apiKey, ...(endpoint?.target.secrets ?? [])]);
  }

  /** Queues one line for the alerting webhook, with no `alert` event (`Router.sendAlert`). */
  alertLine(line: string): void {
    this.#alerter.raiseLine(line);
  }

  /**
   * Delivers pending alerts and call records (bounded), then releases every connection pool, cache and
   * the store (when the router made it).
   */
  async close(ownsStore: boolean): Promise<void> {
    await Promise.all([this.#alerter.close(), this.records.close()]);
    this.providers.close();
    this.deadlines.close();
    this.#strategies.clear();
    await this.http.close();
    if (ownsStore) await this.store.close?.();
  }
}
