import type { ConcurrencyLimiter } from '../checks/concurrency-limiter.js';
import type { CooldownTracker } from '../cooldown/cooldown-tracker.js';
import type { Deployment } from '../types/index.js';
import type { Tier } from './deployment-registry.js';
import type { Endpoint } from './endpoint.js';

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
  /** Pre-call checks for this call (region, context window); undefined when off. */
  admits: ((endpoint: Endpoint) => boolean) | undefined;
  /** Deployments that already failed this call. */
  excluded: ReadonlySet<string> | undefined;
  /** Weighted failover: never reuse a failed deployment. Otherwise they are reused when nothing else is left. */
  strictExclusion: boolean;
}

/**
 * Filters a tier to what may serve now: not cooling (or a free half-open trial), admitted by the
 * pre-call checks, not already failed for this call when others remain, with a free slot. Returns the
 * tier itself, allocation-free, when nothing is cooling, excluded, limited or checked.
 */
export function candidatePool(tier: Tier, rules: CandidateRules, now: number): CandidatePool {
  const { tracker, limiter, admits, excluded } = rules;
  if (tracker.idle && !excluded?.size && limiter.inactive && !admits) {
    return { endpoints: tier.endpoints, deployments: tier.deployments, full: 0 };
  }
  const healthy = tier.endpoints.filter(
    (e) => tracker.isAvailable(e.deployment.id, now) && (!admits || admits(e)),
  );
  const fresh = excluded?.size ? healthy.filter((e) => !excluded.has(e.deployment.id)) : healthy;
  const pool = fresh.length > 0 || rules.strictExclusion ? fresh : healthy;
  const withRoom = limiter.inactive ? pool : pool.filter((e) => limiter.hasRoom(e.deployment.id));
  return {
    endpoints: withRoom,
    deployments: withRoom.map((e) => e.deployment),
    full: pool.length - withRoom.length,
  };
}
