import { RateLimitError } from '../errors/classes.js';

/**
 * In-flight calls per deployment against each one's `max_parallel_requests`. A full deployment is
 * skipped by selection; when every candidate is full, the call waits (bounded by its timeout) for any
 * slot to free. Deployments without a limit are never counted, so the feature costs nothing when off.
 */
export class ConcurrencyLimiter {
  readonly #inFlight = new Map<string, number>();
  #waiters = new Set<() => void>();

  /** True when no deployment has a limit. */
  constructor(private readonly limits: ReadonlyMap<string, number>) {}

  get inactive(): boolean {
    return this.limits.size === 0;
  }

  hasRoom(id: string): boolean {
    const limit = this.limits.get(id);
    return limit === undefined || (this.#inFlight.get(id) ?? 0) < limit;
  }

  isLimited(id: string): boolean {
    return this.limits.has(id);
  }

  /** Takes a slot; false when the deployment is full (a concurrent call took the last one). */
  tryAcquire(id: string): boolean {
    const limit = this.limits.get(id);
    if (limit === undefined) return true;
    const current = this.#inFlight.get(id) ?? 0;
    if (current >= limit) return false;
    this.#inFlight.set(id, current + 1);
    return true;
  }

  release(id: string): void {
    if (!this.limits.has(id)) return;
    this.#inFlight.set(id, Math.max(0, (this.#inFlight.get(id) ?? 0) - 1));
    const waiters = this.#waiters;
    this.#waiters = new Set();
    for (const wake of waiters) wake();
  }

  /**
   * Resolves when any deployment frees a slot; rejects with RateLimitError after `timeoutMs`, or with
   * the abort reason when the caller aborts.
   */
  waitForRoom(model: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
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
        reject(
          new RateLimitError(
            `Every deployment of ${model} is at its max_parallel_requests; no slot freed within ${timeoutMs} ms`,
            { model },
          ),
        );
      }, timeoutMs);
      this.#waiters.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
