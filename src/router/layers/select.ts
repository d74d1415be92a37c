import type { ConcurrencyLimiter } from '../../checks/concurrency-limiter.js';
import { secondsToNextMinute, underLimits } from '../../checks/minute-limits.js';
import type { UsageCounters } from '../../checks/usage-counters.js';
import type { CooldownTracker } from '../../cooldown/cooldown-tracker.js';
import {
  InternalServerError,
  type NoDeploymentsAvailableError,
  RateLimitError,
} from '../../errors/classes.js';
import { sleep } from '../../policies/wait.js';
import type { CallSignal } from '../../shared/call-signal.js';
import { isPromise } from '../../stores/store.js';
import type { RoutingStrategy } from '../../strategies/strategy.js';
import type { Endpoint, MinuteUsage, ModelGroup, Tier } from '../../types/index.js';
import {
  type Backoff,
  type Call,
  chosenStep,
  type Handler,
  type Layer,
  type Routed,
  type Step,
} from '../call.js';
import { type CandidatePool, candidatePool } from '../candidates.js';

export interface SelectDeps {
  tracker: CooldownTracker;
  limiter: ConcurrencyLimiter;
  now(): number;
  /** The strategy of a group under the current config. */
  strategyFor(group: ModelGroup): RoutingStrategy;
  /**
   * The "no deployments" error for a group (message of CONTRACT 2.5); `seconds` is when to try again
   * when the select layer knows better than the cooldowns (every candidate at its per-minute limit).
   */
  noDeployments(
    group: ModelGroup,
    request: Readonly<Record<string, unknown>>,
    seconds?: number,
  ): NoDeploymentsAvailableError;
  /**
   * Minute usage (`rpm`/`tpm`): for the groups it applies to, the candidates' counters are read before
   * each pick (deployments at their limits are left out, the rest passed to the strategy as
   * `context.usage`) and each routed request is counted. Absent: no group reads usage.
   */
  usage?: {
    counters: UsageCounters;
    /** Whether calls of this group (chosen by this strategy) read and count minute usage. */
    appliesTo(group: ModelGroup, strategy: RoutingStrategy): boolean;
  };
}

export interface SelectOptions {
  /** Some endpoint has a concurrency limit: count slots and wait for one when all are full. */
  limited: boolean;
  /**
   * Whether a group routes with weighted failover (`enable_weighted_failover` with simple-shuffle):
   * failed deployments are never reused by its calls.
   */
  weightedFailover(group: ModelGroup): boolean;
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
 * Chooses the endpoint of the next attempt among the current tier's candidates (healthy, admitted,
 * under their per-minute limits when those apply, with room) with the group's strategy, and claims it
 * atomically: its concurrency slot and, when half-open, its single trial; then counts the request in
 * the minute's usage when that applies. If the pick is the deployment the retry layer asked to back
 * off from, the wait happens first (bounded by the call's deadline). When every candidate is full,
 * waits for a slot until the call's deadline. With nothing to pick, throws NoDeploymentsAvailableError
 * (with per-minute limits, saying when the minute turns).
 */
export function selectLayer(deps: SelectDeps, options: SelectOptions): Layer {
  const { tracker, limiter, now } = deps;
  const poolFor = <T>(
    call: Call<T>,
    step: Step,
    choice: Choice,
    usage: readonly MinuteUsage[] | undefined,
    at: number,
  ) =>
    candidatePool(
      step.tier,
      {
        tracker,
        limiter,
        limited: options.limited,
        admits: step.admits,
        excluded: call.history.excluded,
        timedOut: call.history.timedOut,
        eligible: call.eligible,
        strictExclusion: choice.strictExclusion,
        usage,
      },
      at,
    );
  // claims the endpoint's slot and, when half-open, its single trial; false when a concurrent call won
  const claim = (endpoint: Endpoint, counters: UsageCounters | undefined): boolean => {
    const id = endpoint.deployment.id;
    if (!limiter.tryAcquire(id, endpoint.parallelLimit)) return false;
    if (!tracker.tryPick(id, now())) {
      limiter.release(id);
      return false;
    }
    counters?.countRequest(endpoint.deployment, now());
    return true;
  };

  // the general case: anything may need awaiting (a shared store, an async strategy, a backoff, a slot)
  const choose = async <T>(
    next: Handler,
    call: Call<T>,
    step: Step,
    choice: Choice,
    resume?: Resume,
  ): Promise<Routed<T>> => {
    const { group, signal } = step;
    const { strategy, counters } = choice;
    // a hedge runs now or not at all: it waits for no slot and no backoff
    const deadline = step.hedge ? now() : call.deadline;
    let backoff = step.backoff;
    for (;;) {
      const from = resume;
      resume = undefined;
      let pool: CandidatePool;
      let endpoint: Promise<Endpoint | undefined> | Endpoint | undefined;
      if (from?.pool) {
        pool = from.pool;
        endpoint = from.endpoint;
      } else {
        // both reads are issued before either is awaited: a pipelining store sends them together
        const refreshed = from ? from.refreshed : tracker.refresh(group);
        let usage = from ? from.usage : counters?.read(step.tier.deployments, now());
        if (isPromise(refreshed)) await refreshed;
        if (isPromise(usage)) usage = await usage;
        // one reading of the clock for the pool and the wait below: were the cooldown to end between two
        // readings, the deployment would be neither in the pool nor waited for, and the call given up
        const at = now();
        pool = poolFor(call, step, choice, usage, at);
        if (pool.endpoints.length === 0) {
          if (pool.full === 0) {
            // the retry layer asked to wait out a 429's retry-after: nothing else can take the call
            const cooling = backoff?.cooling ? backoff : undefined;
            if (cooling) {
              // the rest of the cooldown too: a timer may fire early (libuv's cached loop time)
              const waitMs = Math.max(cooling.waitMs, tracker.availableAt(cooling.id, at) - at);
              backoff = Number.isFinite(waitMs) && waitMs > 0 ? { ...cooling, waitMs: 0 } : undefined;
              if (backoff) {
                await waitOut({ ...cooling, waitMs }, deadline, signal, at);
                continue;
              }
            }
            const seconds =
              usage && pool.overLimit > 0 ? limitWait(step.tier, usage, tracker, now()) : undefined;
            throw deps.noDeployments(group, call.request, seconds);
          }
          await limiter.waitForRoom(group.name, deadline, now(), signal);
          continue;
        }
        endpoint = pool.endpoints.length === 1 ? pool.endpoints[0] : pick(strategy, pool, call, step);
      }
      if (isPromise(endpoint)) endpoint = await endpoint;
      if (!endpoint) throw strategyMiss(strategy, group, pool);
      const planned = backoff;
      if (planned) {
        backoff = undefined;
        // a cooling deployment picked again has waited out its retry-after already
        if (planned.id === endpoint.deployment.id && planned.waitMs > 0 && !planned.cooling) {
          await waitOut(planned, deadline, signal, now());
          continue; // the world moved while waiting: choose again
        }
      }
      // the strategy may have awaited: claim atomically, and choose again if a concurrent call won
      if (!claim(endpoint, counters)) continue;
      return await next(call, chosenStep(step, strategy, endpoint));
    }
  };

  return (next: Handler) =>
    <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
      const { group } = step;
      const strategy = deps.strategyFor(group);
      const choice: Choice = {
        strategy,
        counters: deps.usage?.appliesTo(group, strategy) ? deps.usage.counters : undefined,
        strictExclusion: options.weightedFailover(group) && call.asyncEntry,
      };
      // The common call has nothing to wait for (a synchronous store and strategy, a candidate with
      // room, no backoff planned): it is chosen here, without the async frame and its extra turn.
      // Anything else goes on in `choose` from where this stopped: no read is issued twice and the
      // strategy is not asked twice.
      if (step.backoff !== undefined) return choose(next, call, step, choice);
      let endpoint: Promise<Endpoint | undefined> | Endpoint | undefined;
      try {
        const refreshed = tracker.refresh(group);
        const usage = choice.counters?.read(step.tier.deployments, now());
        if (isPromise(refreshed) || isPromise(usage))
          return choose(next, call, step, choice, { refreshed, usage });
        const pool = poolFor(call, step, choice, usage, now());
        if (pool.endpoints.length === 0) return choose(next, call, step, choice, { refreshed, usage });
        endpoint = pool.endpoints.length === 1 ? pool.endpoints[0] : pick(strategy, pool, call, step);
        if (isPromise(endpoint) || !endpoint)
          return choose(next, call, step, choice, { refreshed, usage, pool, endpoint });
        if (!claim(endpoint, choice.counters)) return choose(next, call, step, choice);
      } catch (err) {
        return Promise.reject(err);
      }
      return next(call, chosenStep(step, strategy, endpoint));
    };
}

/**
 * Waits a planned backoff, bounded by the call's deadline; a rate limit that asks for longer than the
 * call has left fails now, with its retryAfterMs.
 */
async function waitOut(
  backoff: Backoff,
  deadline: number,
  signal: CallSignal | undefined,
  now: number,
): Promise<void> {
  const leftMs = deadline - now;
  if (backoff.waitMs > leftMs && RateLimitError.isInstance(backoff.error)) throw backoff.error;
  await sleep(Math.min(backoff.waitMs, Math.max(0, leftMs)), signal);
}

/** How one call chooses in its group: fixed for the call. */
interface Choice {
  strategy: RoutingStrategy;
  /** The minute's usage counters, when this group reads and counts them. */
  counters: UsageCounters | undefined;
  /** Weighted failover: never reuse a deployment that failed this call. */
  strictExclusion: boolean;
}

/** Where the synchronous first turn stopped, for `choose` to go on from. */
interface Resume {
  /** The store's cooldowns read for this turn (a promise while pending). */
  refreshed: unknown;
  /** The minute's usage read for this turn, when the group reads it. */
  usage: ReturnType<UsageCounters['read']> | undefined;
  /** The candidates, once the strategy was asked... */
  pool?: CandidatePool;
  /** ...and its answer not yet taken up (a promise, or nothing chosen). */
  endpoint?: Promise<Endpoint | undefined> | Endpoint | undefined;
}

/**
 * Whole seconds until a tier with deployments at their per-minute limits may serve again: when the
 * minute turns, or sooner when a deployment under its limits ends its cooldown.
 */
function limitWait(tier: Tier, usage: readonly MinuteUsage[], tracker: CooldownTracker, now: number): number {
  const nextMinute = secondsToNextMinute(now);
  const under = tier.deployments.filter((d, i) => underLimits(d, usage[i])).map((d) => d.id);
  const cooling = under.length > 0 ? tracker.secondsUntilAvailable(under, now) : 0;
  return cooling > 0 ? Math.min(cooling, nextMinute) : nextMinute;
}

function pick<T>(
  strategy: RoutingStrategy,
  pool: CandidatePool,
  call: Call<T>,
  step: Step,
): Promise<Endpoint | undefined> | Endpoint | undefined {
  const selected = strategy.select(pool.deployments, {
    model: step.group.name,
    request: call.request,
    usage: pool.usage,
  });
  if (isPromise(selected))
    return selected.then((chosen) => chosen && pool.endpoints[pool.deployments.indexOf(chosen)]);
  return selected && pool.endpoints[pool.deployments.indexOf(selected)];
}
