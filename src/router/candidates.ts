import type { ConcurrencyLimiter } from '../checks/concurrency-limiter.js';
import type { CooldownTracker } from '../cooldown/cooldown-tracker.js';
import type { Deployment, Endpoint, Tier } from '../types/index.js';
import type { Admits } from './call.js';

/** The deployments a call may pick from now, and how many were skipped only for being full. */
export interface CandidatePool {
  endpoints: readonly Endpoint[];
  deployments: readonly Deployment[];
  /** Healthy candidates skipped because they are at `max_parallel_requests`. */
  full: number;
}

export interface CandidateRules {
  tracker: CooldownTracker;
  limiter: ConcurrencyLimiter;
  /** Whether any endpoint of the config has a concurrency limit. */
  limited: boolean;
  /** Pre-call checks for this call (region, context window); undefined when off. */
  admits: Admits | undefined;
  /** Deployments that already failed this call. */
  excluded: ReadonlySet<string> | undefined;
  /** Deployments that timed out this call: never offered again. */
  timedOut: ReadonlySet<string> | undefined;
  /** Weighted failover: never reuse a failed deployment. Otherwise they are reused when nothing else is left. */
  strictExclusion: boolean;
}

/**
 * Filters a tier to what may serve now: not cooling (or a free half-open trial), admitted by the
 * pre-call checks, not timed out for this call, not already failed for it when others remain, with a
 * free slot. Returns the tier itself, allocation-free, when nothing applies. Pure given its inputs.
 */
export function candidatePool(tier: Tier, rules: CandidateRules, now: number): CandidatePool {
  const { tracker, limiter, admits, excluded, timedOut } = rules;
  if (tracker.idle && !excluded?.size && !timedOut?.size && !rules.limited && !admits) {
    return { endpoints: tier.endpoints, deployments: tier.deployments, full: 0 };
  }
  const healthy = tier.endpoints.filter(
    (e) =>
      tracker.isAvailable(e.deployment.id, now) && !timedOut?.has(e.deployment.id) && (!admits || admits(e)),
  );
  const fresh = excluded?.size ? healthy.filter((e) => !excluded.has(e.deployment.id)) : healthy;
  const pool = fresh.length > 0 || rules.strictExclusion ? fresh : healthy;
  const withRoom = rules.limited
    ? pool.filter((e) => limiter.hasRoom(e.deployment.id, e.parallelLimit))
    : pool;
  return {
    endpoints: withRoom,
    deployments:
      withRoom.length === tier.endpoints.length ? tier.deployments : withRoom.map((e) => e.deployment),
    full: pool.length - withRoom.length,
  };
}
