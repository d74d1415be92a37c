import { RateLimitError } from '../errors/classes.js';
import { clampTimerMs } from '../shared/timers.js';

/**
 * In-flight calls per deployment. Counts every call (least-busy routing and the health view read
 * them); a deployment's `max_parallel_requests` is checked against its count when it has one. Lives in
 * the router's runtime, so counts carry over when settings change.
 */
export class ConcurrencyLimiter {
  readonly #inFlight = new Map<string, number>();
  #waiters = new Set<() => void>();

  /** Calls in flight on a deployment now. */
  inFlight(id: string): number {
    return this.#inFlight.get(id) ?? 0;
  }

  /** Whether a deployment with this limit can take one more call. */
  hasRoom(id: string, limit: number | undefined): boolean {
    return limit === undefined || this.inFlight(id) < limit;
  }

  /** Takes a slot; false when the deployment is at its limit (a concurrent call took the last one). */
  tryAcquire(id: string, limit: number | undefined): boolean {
    const current = this.#inFlight.get(id) ?? 0;
    if (limit !== undefined && current >= limit) return false;
    this.#inFlight.set(id, current + 1);
    return true;
  }

  /** Gives a slot back and wakes the calls waiting for one. */
  release(id: string): void {
    const current = this.#inFlight.get(id) ?? 0;
    if (current <= 1) this.#inFlight.delete(id);
    else this.#inFlight.set(id, current - 1);
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
  waitForRoom(model: string, deadline: number, now: number, signal: AbortSignal | undefined): Promise<void> {
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
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function fullError(model: string): RateLimitError {
  return new RateLimitError(
    `Every deployment of ${model} is at its max_parallel_requests, and no slot freed within the call's timeout`,
    { model },
  );
}
