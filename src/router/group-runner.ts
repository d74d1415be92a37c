import { setTimeout as sleep } from 'node:timers/promises';
import pRetry, { AbortError } from 'p-retry';
import type { ConcurrencyLimiter } from '../checks/concurrency-limiter.js';
import type { CooldownTracker } from '../cooldown/cooldown-tracker.js';
import { NoDeploymentsAvailableError, RateLimitError } from '../errors/classes.js';
import { errorFromNetwork } from '../errors/map-error.js';
import type { RouterError } from '../errors/router-error.js';
import { rateLimitBackoffMs } from '../policies/backoff.js';
import { maxRetries, policyKeyOf, type RetryPolicy, retriesFor } from '../policies/retry-policy.js';
import type { RoutingStrategy } from '../strategies/strategy.js';
import type { CallContext, Routed } from './call-context.js';
import type { CallObserver } from './call-observer.js';
import { type CandidatePool, candidatePool } from './candidates.js';
import type { ModelGroup, Tier } from './deployment-registry.js';
import type { Endpoint } from './endpoint.js';

/** The settings the runner reads, rebuilt when settings change. */
export interface RunnerConfig {
  numRetries: number;
  retryPolicy: RetryPolicy | undefined;
  /** `retry_after` in ms: the least wait before retrying a rate limit. */
  retryAfterMs: number;
  cooldownMs: number;
  maxFallbacks: number;
  /** `enable_weighted_failover` with simple-shuffle. */
  weightedFailover: boolean;
}

export interface RunnerParts {
  strategy(): RoutingStrategy;
  config(): RunnerConfig;
  tracker: CooldownTracker;
  limiter(): ConcurrencyLimiter;
  observer: CallObserver;
  now(): number;
  random(): number;
  /** The "no deployments" error for a group (message of CONTRACT 2.5). */
  noDeployments(group: ModelGroup, request: Readonly<Record<string, unknown>>): NoDeploymentsAvailableError;
}

/** Whether a failure says something about the deployment (so another one may serve) rather than the request. */
export function isDeploymentFailure(error: RouterError): boolean {
  return error.retryable || error.status === 401 || error.status === 403 || error.status === 404;
}

/**
 * Runs a call on one model group: the lowest `order` tier first, each tier with its own retries (every
 * retry selects again and never picks a cooling deployment), the next tier when one is exhausted or
 * has nothing available. Every failed attempt counts toward cooldown. With weighted failover, failed
 * deployments are excluded for the rest of the call and hops are bounded by `max_fallbacks`.
 */
export class GroupRunner {
  constructor(private readonly parts: RunnerParts) {}

  async run<T>(
    group: ModelGroup,
    ctx: CallContext<T>,
    admits: ((endpoint: Endpoint) => boolean) | undefined,
  ): Promise<Routed<T>> {
    let lastFailure: RouterError | undefined;
    for (const tier of group.tiers) {
      try {
        return await this.#runTier(group, tier, ctx, admits);
      } catch (err) {
        if (ctx.signal?.aborted) throw err;
        const error = err as RouterError;
        if (NoDeploymentsAvailableError.isInstance(error)) continue;
        lastFailure = error;
        if (!isDeploymentFailure(error)) throw error;
      }
    }
    throw lastFailure ?? this.parts.noDeployments(group, ctx.request);
  }

  /**
   * One tier with its retries. The first attempt runs directly (the common call pays nothing for the
   * retry machinery); after a failure that may be retried, p-retry runs the rest.
   */
  async #runTier<T>(
    group: ModelGroup,
    tier: Tier,
    ctx: CallContext<T>,
    admits: ((endpoint: Endpoint) => boolean) | undefined,
  ): Promise<Routed<T>> {
    const config = this.parts.config();
    const failover = config.weightedFailover && ctx.asyncEntry;
    const numRetries = ctx.numRetries ?? config.numRetries;
    const used = new Map<string, number>();
    let pendingWaitMs = 0;
    let retryNumber = 0;
    const attemptOnce = async () => {
      if (pendingWaitMs > 0) await sleep(pendingWaitMs, undefined, { signal: ctx.signal });
      let endpoint: Endpoint;
      try {
        endpoint = await this.#select(group, tier, ctx, admits, failover);
      } catch (error) {
        throw new AbortError(error as Error); // nothing to pick in this tier: no retry here
      }
      return this.#attempt(group, endpoint, ctx);
    };
    const shouldRetry = (e: RouterError): boolean => {
      if (failover) {
        if (!e.retryable) return false;
      } else {
        const key = policyKeyOf(e) ?? (e.retryable ? 'retryable' : 'other');
        const count = (used.get(key) ?? 0) + 1;
        used.set(key, count);
        if (count > retriesFor(e, numRetries, config.retryPolicy)) return false;
      }
      retryNumber += 1;
      pendingWaitMs = this.#waitBeforeRetry(e, retryNumber, config, ctx);
      return pendingWaitMs >= 0;
    };
    const retries = failover ? config.maxFallbacks : maxRetries(numRetries, config.retryPolicy);
    try {
      return await attemptOnce();
    } catch (err) {
      if (err instanceof AbortError) throw err.originalError;
      if (ctx.signal?.aborted || retries === 0 || !shouldRetry(err as RouterError)) throw err;
    }
    return pRetry(attemptOnce, {
      retries: retries - 1,
      minTimeout: 0,
      factor: 1,
      signal: ctx.signal,
      shouldRetry: ({ error }) => shouldRetry(error as RouterError),
    });
  }

  /**
   * Backoff applies to a rate limit only when the next pick could land on the same deployment (it is
   * not cooling, e.g. the only one of its group); a cooled deployment's peers are tried at once.
   * Returns -1 when the wait would outlast the call's timeout (then it is not retried).
   */
  #waitBeforeRetry<T>(
    error: RouterError,
    retryNumber: number,
    config: RunnerConfig,
    ctx: CallContext<T>,
  ): number {
    if (!RateLimitError.isInstance(error)) return 0;
    const id = error.modelId;
    if (id && !this.parts.tracker.isAvailable(id, this.parts.now())) return 0;
    if (id && ctx.excluded?.has(id) && config.weightedFailover && ctx.asyncEntry) return 0;
    const wait = rateLimitBackoffMs(retryNumber, error.retryAfterMs, config.retryAfterMs, this.parts.random);
    return ctx.timeoutMs !== undefined && wait > ctx.timeoutMs ? -1 : wait;
  }

  async #select<T>(
    group: ModelGroup,
    tier: Tier,
    ctx: CallContext<T>,
    admits: ((endpoint: Endpoint) => boolean) | undefined,
    strictExclusion: boolean,
  ): Promise<Endpoint> {
    const { tracker } = this.parts;
    for (;;) {
      const limiter = this.parts.limiter();
      const now = this.parts.now();
      const pool = candidatePool(
        tier,
        { tracker, limiter, admits, excluded: ctx.excluded, strictExclusion },
        now,
      );
      if (pool.endpoints.length > 0) {
        const endpoint = await this.#pick(group, pool, ctx);
        if (!endpoint) break;
        // the strategy may have awaited: claim atomically, and choose again if a concurrent call won
        const id = endpoint.deployment.id;
        if (!limiter.tryAcquire(id)) continue;
        if (!tracker.tryPick(id, this.parts.now())) {
          limiter.release(id);
          continue;
        }
        return endpoint;
      }
      if (pool.full === 0) break;
      const waitMs = ctx.timeoutMs ?? tier.endpoints[0]?.timeoutMs ?? 600_000;
      await limiter.waitForRoom(group.name, waitMs, ctx.signal);
    }
    throw this.parts.noDeployments(group, ctx.request);
  }

  async #pick<T>(group: ModelGroup, pool: CandidatePool, ctx: CallContext<T>): Promise<Endpoint | undefined> {
    if (pool.endpoints.length === 1) return pool.endpoints[0];
    const selected = this.parts
      .strategy()
      .select(pool.deployments, { model: group.name, request: ctx.request });
    const chosen = selected instanceof Promise ? await selected : selected;
    return chosen && pool.endpoints[pool.deployments.indexOf(chosen)];
  }

  async #attempt<T>(group: ModelGroup, endpoint: Endpoint, ctx: CallContext<T>): Promise<Routed<T>> {
    const id = endpoint.deployment.id;
    const startMs = this.parts.now();
    const limiter = this.parts.limiter();
    ctx.attempts += 1;
    let result: T;
    try {
      result = await ctx.attempt(endpoint);
    } catch (err) {
      limiter.release(id);
      if (ctx.signal?.aborted) {
        this.parts.tracker.released(id);
        throw err;
      }
      const { target } = endpoint;
      const error = errorFromNetwork(err, {
        provider: target.provider,
        model: target.model,
        modelId: target.modelId,
      });
      this.#failed(group, endpoint, ctx, error, startMs);
      throw error;
    }
    this.parts.tracker.success(id, this.parts.now());
    if (!ctx.stream) {
      limiter.release(id);
      return { result, endpoint, attempts: ctx.attempts, startMs, settle: () => undefined };
    }
    let settled = false;
    const settle = (error?: RouterError) => {
      if (settled) return;
      settled = true;
      limiter.release(id);
      if (error) this.#count(group, endpoint, error);
    };
    return { result, endpoint, attempts: ctx.attempts, startMs, settle };
  }

  #failed<T>(
    group: ModelGroup,
    endpoint: Endpoint,
    ctx: CallContext<T>,
    error: RouterError,
    startMs: number,
  ): void {
    ctx.failures.push(error);
    ctx.excluded ??= new Set();
    ctx.excluded.add(endpoint.deployment.id);
    this.parts.observer.failed(
      {
        request: ctx.request,
        endpoint,
        stream: ctx.stream,
        startMs,
        endMs: this.parts.now(),
        excluded: ctx.excluded,
      },
      error,
    );
    this.#count(group, endpoint, error);
  }

  #count(group: ModelGroup, endpoint: Endpoint, error: RouterError): void {
    const { deployment } = endpoint;
    const seconds = deployment.params.cooldown_time;
    this.parts.tracker.failure(
      {
        id: deployment.id,
        group: group.name,
        cooldownMs: seconds === undefined ? this.parts.config().cooldownMs : seconds * 1000,
        groupSize: group.endpoints.length,
      },
      error,
      this.parts.now(),
    );
  }
}
