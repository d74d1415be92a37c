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
  /** The endpoints the call may use at all (see `Call.eligible`); unset: any. */
  eligible?: Admits | undefined;
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
 * when others remain, with a free slot. Returns the tier itself, allocation-free, when nothing is left
 * out. Pure given its inputs; one pass over the tier unless the call has failed deployments to avoid.
 */
export function candidatePool(tier: Tier, rules: CandidateRules, now: number): CandidatePool {
  const { tracker, limiter, admits, excluded, timedOut, eligible, usage } = rules;
  const all = tier.endpoints;
  const checkHealth = !tracker.idle;
  const checkRoom = rules.limited && limiter.anyAtLimit;
  if (!checkHealth && !checkRoom && !excluded?.size && !timedOut?.size && !eligible && !admits && !usage) {
    return { endpoints: all, deployments: tier.deployments, usage, full: 0, overLimit: 0 };
  }
  // status of each endpoint: may serve, left out, or healthy but full (waited for when nothing else is left)
  const status = (e: Endpoint, i: number): 'ok' | 'out' | 'over' => {
    const { id } = e.deployment;
    if (checkHealth && !tracker.isAvailable(id, now)) return 'out';
    if (timedOut?.has(id) || (eligible && !eligible(e)) || (admits && !admits(e))) return 'out';
    if (usage && !underLimits(e.deployment, usage[i])) return 'over';
    return 'ok';
  };
  const hasRoom = (e: Endpoint) => !checkRoom || limiter.hasRoom(e.deployment.id, e.parallelLimit);
  if (excluded?.size) return avoidingFailed(tier, rules, status, hasRoom);
  // the indices kept, listed only from the first endpoint left out: none is the common case
  let kept: number[] | undefined;
  let full = 0;
  let overLimit = 0;
  for (let i = 0; i < all.length; i++) {
    const e = all[i]!;
    const s = status(e, i);
    if (s === 'ok' && hasRoom(e)) {
      kept?.push(i);
      continue;
    }
    kept ??= Array.from({ length: i }, (_, j) => j);
    if (s === 'ok') full++;
    else if (s === 'over') overLimit++;
  }
  if (!kept) return { endpoints: all, deployments: tier.deployments, usage, full: 0, overLimit: 0 };
  return poolOf(tier, kept, usage, full, overLimit);
}

/**
 * The pool of a call that has failed deployments: those are offered again only when no other healthy
 * one is left (never, under strict exclusion).
 */
function avoidingFailed(
  tier: Tier,
  rules: CandidateRules,
  status: (e: Endpoint, i: number) => 'ok' | 'out' | 'over',
  hasRoom: (e: Endpoint) => boolean,
): CandidatePool {
  const all = tier.endpoints;
  const healthy: number[] = [];
  let overLimit = 0;
  for (let i = 0; i < all.length; i++) {
    const s = status(all[i]!, i);
    if (s === 'ok') healthy.push(i);
    else if (s === 'over') overLimit++;
  }
  const fresh = healthy.filter((i) => !rules.excluded!.has(all[i]!.deployment.id));
  const pool = fresh.length > 0 || rules.strictExclusion ? fresh : healthy;
  const withRoom = pool.filter((i) => hasRoom(all[i]!));
  return poolOf(tier, withRoom, rules.usage, pool.length - withRoom.length, overLimit);
}

/** The pool of these tier indices: the tier's own arrays when every endpoint is kept. */
function poolOf(
  tier: Tier,
  kept: readonly number[],
  usage: readonly MinuteUsage[] | undefined,
  full: number,
  overLimit: number,
): CandidatePool {
  const all = tier.endpoints;
  if (kept.length === all.length)
    return { endpoints: all, deployments: tier.deployments, usage, full, overLimit };
  return {
    endpoints: kept.map((i) => all[i]!),
    deployments: kept.map((i) => all[i]!.deployment),
    usage: usage && kept.map((i) => usage[i]!),
    full,
    overLimit,
  };
}
