import type { ConcurrencyLimiter } from '../checks/concurrency-limiter.js';
import { underLimits } from '../checks/minute-limits.js';
import type { CooldownTracker } from '../cooldown/cooldown-tracker.js';
import type { Deployment, Endpoint, MinuteUsage, Tier } from '../types/index.js';
import type { Admits } from './call.js';

/** The deployments a call may pick from now, and how many were skipped only for being full. */
export interface CandidatePool {
  endpoints: readonly Endpoint[];
  deployments: readonly Deployment[];
  /** This minute's usage of each candidate (`usage[i]` is `endpoints[i]`'s), when it was read. */
  usage: readonly MinuteUsage[] | undefined;
  /** Healthy candidates skipped because they are at `max_parallel_requests`. */
  full: number;
  /** Candidates skipped because they are at their `rpm`/`tpm` for this minute. */
  overLimit: number;
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
  /**
   * This minute's usage of each endpoint of the tier (same order), when read: deployments at their
   * `rpm`/`tpm` are left out.
   */
  usage?: readonly MinuteUsage[] | undefined;
}

/**
 * Filters a tier to what may serve now: not cooling (or a free half-open trial), admitted by the
 * pre-call checks, under its per-minute limits, not timed out for this call, not already failed for it
 * when others remain, with a free slot. Returns the tier itself, allocation-free, when nothing applies.
 * Pure given its inputs.
 */
export function candidatePool(tier: Tier, rules: CandidateRules, now: number): CandidatePool {
  const { tracker, limiter, admits, excluded, timedOut, usage } = rules;
  const all = tier.endpoints;
  if (tracker.idle && !excluded?.size && !timedOut?.size && !rules.limited && !admits && !usage) {
    return { endpoints: all, deployments: tier.deployments, usage, full: 0, overLimit: 0 };
  }
  // indices into the tier, so that usage stays aligned with what is kept
  const healthy: number[] = [];
  let overLimit = 0;
  for (let i = 0; i < all.length; i++) {
    const e = all[i]!;
    const { id } = e.deployment;
    if (!tracker.isAvailable(id, now) || timedOut?.has(id) || (admits && !admits(e))) continue;
    if (usage && !underLimits(e.deployment, usage[i])) {
      overLimit++;
      continue;
    }
    healthy.push(i);
  }
  const fresh = excluded?.size ? healthy.filter((i) => !excluded.has(all[i]!.deployment.id)) : healthy;
  const pool = fresh.length > 0 || rules.strictExclusion ? fresh : healthy;
  const withRoom = rules.limited
    ? pool.filter((i) => limiter.hasRoom(all[i]!.deployment.id, all[i]!.parallelLimit))
    : pool;
  const full = pool.length - withRoom.length;
  if (withRoom.length === all.length) {
    return { endpoints: all, deployments: tier.deployments, usage, full, overLimit };
  }
  return {
    endpoints: withRoom.map((i) => all[i]!),
    deployments: withRoom.map((i) => all[i]!.deployment),
    usage: usage && withRoom.map((i) => usage[i]!),
    full,
    overLimit,
  };
}
