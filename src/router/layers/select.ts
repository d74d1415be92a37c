import type { ConcurrencyLimiter } from '../../checks/concurrency-limiter.js';
import type { CooldownTracker } from '../../cooldown/cooldown-tracker.js';
import {
  InternalServerError,
  type NoDeploymentsAvailableError,
  RateLimitError,
} from '../../errors/classes.js';
import { sleep } from '../../policies/wait.js';
import { isPromise } from '../../stores/store.js';
import type { RoutingStrategy } from '../../strategies/strategy.js';
import type { Endpoint, ModelGroup } from '../../types/index.js';
import type { Call, Handler, Layer, Routed } from '../call.js';
import { type CandidatePool, candidatePool } from '../candidates.js';

export interface SelectDeps {
  tracker: CooldownTracker;
  limiter: ConcurrencyLimiter;
  now(): number;
  /** The strategy of a group under the current config. */
  strategyFor(group: ModelGroup): RoutingStrategy;
  /** The "no deployments" error for a group (message of CONTRACT 2.5). */
  noDeployments(group: ModelGroup, request: Readonly<Record<string, unknown>>): NoDeploymentsAvailableError;
}

export interface SelectOptions {
  /** Some endpoint has a concurrency limit: count slots and wait for one when all are full. */
  limited: boolean;
  /** `enable_weighted_failover` with simple-shuffle: failed deployments are never reused by a call. */
  weightedFailover: boolean;
}

function strategyMiss(
  strategy: RoutingStrategy,
  group: ModelGroup,
  pool: CandidatePool,
): InternalServerError {
  const ids = pool.deployments.map((d) => d.id).join(', ');
  return new InternalServerError(
    `routing strategy \`${strategy.name}\` chose no deployment for model group ${group.name} (candidates: ${ids})`,
    { model: group.name, retryable: false },
  );
}

/**
 * Chooses the endpoint of the next attempt among the current tier's candidates (healthy, admitted, with
 * room) with the group's strategy, and claims it atomically: its concurrency slot and, when half-open,
 * its single trial. If the pick is the deployment the retry layer asked to back off from, the wait
 * happens first (bounded by the call's deadline). When every candidate is full, waits for a slot until
 * the call's deadline. With nothing to pick, throws NoDeploymentsAvailableError.
 */
export function selectLayer(deps: SelectDeps, options: SelectOptions): Layer {
  const { tracker, limiter, now } = deps;
  return (next: Handler) =>
    async <T>(call: Call<T>): Promise<Routed<T>> => {
      const { group } = call;
      const strategy = deps.strategyFor(group);
      call.strategy = strategy;
      const strictExclusion = options.weightedFailover && call.asyncEntry;
      for (;;) {
        const refreshed = tracker.refresh(group);
        if (isPromise(refreshed)) await refreshed;
        const pool = candidatePool(
          call.tier,
          {
            tracker,
            limiter,
            limited: options.limited,
            admits: call.admits,
            excluded: call.excluded,
            timedOut: call.timedOut,
            strictExclusion,
          },
          now(),
        );
        if (pool.endpoints.length === 0) {
          if (pool.full === 0) throw deps.noDeployments(group, call.request);
          await limiter.waitForRoom(group.name, call.deadline, now(), call.signal);
          continue;
        }
        let endpoint = pool.endpoints.length === 1 ? pool.endpoints[0] : pick(strategy, pool, call);
        if (isPromise(endpoint)) endpoint = await endpoint;
        if (!endpoint) throw strategyMiss(strategy, group, pool);
        const id = endpoint.deployment.id;
        const backoff = call.backoff;
        if (backoff) {
          call.backoff = undefined;
          if (backoff.id === id && backoff.waitMs > 0) {
            const leftMs = call.deadline - now();
            // a rate limit that asks for longer than the call has left fails now, with its retryAfterMs
            if (backoff.waitMs > leftMs && RateLimitError.isInstance(backoff.error)) throw backoff.error;
            await sleep(Math.min(backoff.waitMs, Math.max(0, leftMs)), call.signal);
            continue; // the world moved while waiting: choose again
          }
        }
        // the strategy may have awaited: claim atomically, and choose again if a concurrent call won
        if (!limiter.tryAcquire(id, endpoint.parallelLimit)) continue;
        if (!tracker.tryPick(id, now())) {
          limiter.release(id);
          continue;
        }
        call.endpoint = endpoint;
        return next(call);
      }
    };
}

function pick<T>(
  strategy: RoutingStrategy,
  pool: CandidatePool,
  call: Call<T>,
): Promise<Endpoint | undefined> | Endpoint | undefined {
  const selected = strategy.select(pool.deployments, { model: call.group.name, request: call.request });
  if (isPromise(selected))
    return selected.then((chosen) => chosen && pool.endpoints[pool.deployments.indexOf(chosen)]);
  return selected && pool.endpoints[pool.deployments.indexOf(selected)];
}
