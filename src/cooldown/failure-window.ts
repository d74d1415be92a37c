/** A deployment's calls and failures in the current wall-clock minute. */
export interface MinuteCounts {
  calls: number;
  /** Failures that count toward `allowed_fails` and the failure rate. */
  fails: number;
  /** 429s, counted apart when `allowed_fails_policy.RateLimitErrorAllowedFails` is set. */
  rateLimitFails: number;
  /** Content-policy refusals, counted only when `ContentPolicyViolationErrorAllowedFails` is set. */
  policyFails: number;
}

export type FailureKind = 'fail' | 'rateLimit' | 'policy';

/**
 * Per-deployment counts for the current minute. A new minute starts every count at zero, so "failures
 * in the current minute" needs no timers.
 */
export class FailureWindow {
  readonly #counts = new Map<string, MinuteCounts & { minute: number }>();
  /** The latest minute counted: at a later one every count is past, and dropped. */
  #minute = Number.NEGATIVE_INFINITY;

  #current(id: string, now: number): MinuteCounts & { minute: number } {
    const minute = Math.floor(now / 60_000);
    // deployments come and go (a wildcard's, one per model asked for): the past minutes' counts are
    // never read again, and kept they would grow with every name ever asked for
    if (minute > this.#minute) {
      this.#counts.clear();
      this.#minute = minute;
    }
    let counts = this.#counts.get(id);
    if (!counts || counts.minute !== minute) {
      counts = { minute, calls: 0, fails: 0, rateLimitFails: 0, policyFails: 0 };
      this.#counts.set(id, counts);
    }
    return counts;
  }

  success(id: string, now: number): void {
    this.#current(id, now).calls += 1;
  }

  failure(id: string, kind: FailureKind, now: number): MinuteCounts {
    const counts = this.#current(id, now);
    counts.calls += 1;
    if (kind === 'rateLimit') counts.rateLimitFails += 1;
    else if (kind === 'policy') counts.policyFails += 1;
    counts.fails += kind === 'fail' ? 1 : 0;
    return counts;
  }

  /** This minute's calls and failures of a deployment (all kinds), for the health view. */
  counts(id: string, now: number): { calls: number; failures: number } {
    const counts = this.#counts.get(id);
    if (!counts || counts.minute !== Math.floor(now / 60_000)) return { calls: 0, failures: 0 };
    return { calls: counts.calls, failures: counts.fails + counts.rateLimitFails + counts.policyFails };
  }

  /** Forgets a deployment's counts (it proved healthy again). */
  reset(id: string): void {
    this.#counts.delete(id);
  }
}
