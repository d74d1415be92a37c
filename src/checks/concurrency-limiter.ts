import { RateLimitError } from '../errors/classes.js';
import type { CallSignal } from '../shared/call-signal.js';
import { clampTimerMs } from '../shared/timers.js';

/** A deployment's live in-flight count: one object per deployment id for the limiter's life. */
export interface InFlightCounter {
  readonly value: number;
}

/**
 * In-flight calls per deployment. Counts every call (least-busy routing and the health view read
 * them); a deployment's `max_parallel_requests` is checked against its count when it has one. Lives in
 * the router's runtime, so counts carry over when settings change. Keeps one small counter per
 * deployment id it has seen (they are never dropped, so that a strategy may hold on to them).
 */
export class ConcurrencyLimiter {
  readonly #counters = new Map<string, { value: number }>();
  /** Deployments that reached their limit and have not given a slot back since: usually none. */
  readonly #atLimit = new Set<string>();
  #waiters = new Set<() => void>();

  /** Calls in flight on a deployment now. */
  inFlight(id: string): number {
    return this.#counters.get(id)?.value ?? 0;
  }

  /** A deployment's live in-flight count, to keep and read instead of looking the id up each time. */
  counter(id: string): InFlightCounter {
    let counter = this.#counters.get(id);
    if (!counter) {
      counter = { value: 0 };
      this.#counters.set(id, counter);
    }
    return counter;
  }

  /**
   * Whether some deployment may be at its limit. When false, every deployment has room and candidate
   * filtering skips the per-deployment check.
   */
  get anyAtLimit(): boolean {
    return this.#atLimit.size > 0;
  }

  /** Whether a deployment with this limit can take one more call. */
  hasRoom(id: string, limit: number | undefined): boolean {
    return limit === undefined || this.inFlight(id) < limit;
  }

  /** Takes a slot; false when the deployment is at its limit (a concurrent call took the last one). */
  tryAcquire(id: string, limit: number | undefined): boolean {
    const counter = this.counter(id) as { value: number };
    if (limit !== undefined && counter.value >= limit) {
      this.#atLimit.add(id);
      return false;
    }
    counter.value += 1;
    if (limit !== undefined && counter.value >= limit) this.#atLimit.add(id);
    return true;
  }

  /** Gives a slot back and wakes the calls waiting for one. */
  release(id: string): void {
    // still at a (lowered) limit after this? The next tryAcquire that fails marks it again.
    if (this.#atLimit.size > 0) this.#atLimit.delete(id);
    const counter = this.#counters.get(id);
    if (counter && counter.value > 0) counter.value -= 1;
    if (this.#waiters.size === 0) return;
    const waiters = this.#waiters;
    this.#waiters = new Set();
    for (const wake of waiters) wake();
  }

  /**
   * Resolves when any deployment frees a slot. Rejects with RateLimitError once `deadline` (an absolute
   * time on `now`'s clock) has passed, and with the caller's abort reason when the caller aborts. The
   * deadline is the call's, so repeated waits never add up to more than the call's timeout.
   */
  waitForRoom(model: string, deadline: number, now: number, signal: CallSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const leftMs = deadline - now;
    if (leftMs <= 0) return Promise.reject(fullError(model));
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#waiters.delete(wake);
      };
      const wake = () => {
        done();
        resolve();
      };
      const onAbort = () => {
        done();
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        done();
        reject(fullError(model));
      }, clampTimerMs(leftMs));
      this.#waiters.add(wake);
      signal?.addEventListener('abort', onAbort);
    });
  }
}

function fullError(model: string): RateLimitError {
  return new RateLimitError(
    `Every deployment of ${model} is at its max_parallel_requests, and no slot freed within the call's timeout`,
    { model },
  );
}
