import { performance } from 'node:perf_hooks';
import { isPromise, type MaybePromise, type Store } from './store.js';

/** What a watched store reports. */
export interface StoreHealthEvents {
  /** Every failed operation (counted by the router's metrics). */
  failure?(error: unknown): void;
  /** The first failure after a healthy period: the store is down (or too slow). */
  outage(error: unknown): void;
  /** It answers again, after an outage of `downMs`. */
  recovered(downMs: number): void;
}

/** How long a store must answer without a failure to count as recovered. @default 1000 */
export const QUIET_MS = 1_000;

/**
 * Turns the store's answers into outages and recoveries: one `outage` at the first failure after a
 * healthy period, one `recovered` at the first success after `quietMs` without failures, so a store
 * that fails now and then reports one outage, not one per call. Every listener hears the same ones.
 */
export class StoreHealth {
  readonly #listeners: StoreHealthEvents[] = [];
  #down = false;
  #since = 0;
  #lastFailureAt = 0;

  constructor(
    events?: StoreHealthEvents,
    private readonly now: () => number = performance.now.bind(performance),
    private readonly quietMs = QUIET_MS,
  ) {
    if (events) this.#listeners.push(events);
  }

  /** Adds a listener: another user of the same watched store hears the same outages, not its own. */
  listen(events: StoreHealthEvents): void {
    this.#listeners.push(events);
  }

  /** Whether the store is in an outage. */
  get down(): boolean {
    return this.#down;
  }

  failed(error: unknown): void {
    for (const listener of this.#listeners) listener.failure?.(error);
    const now = this.now();
    this.#lastFailureAt = now;
    if (this.#down) return;
    this.#down = true;
    this.#since = now;
    for (const listener of this.#listeners) listener.outage(error);
  }

  succeeded(): void {
    if (!this.#down) return;
    const now = this.now();
    if (now - this.#lastFailureAt < this.quietMs) return;
    this.#down = false;
    for (const listener of this.#listeners) listener.recovered(now - this.#since);
  }
}

const HEALTH = Symbol('svc.storeHealth');

/** The health a store made by `watchedStore` reports to; undefined for any other store. */
export function healthOf(store: Store): StoreHealth | undefined {
  return (store as { [HEALTH]?: StoreHealth })[HEALTH];
}

/**
 * The store, with every answer reported to `health`: values and errors pass through unchanged. A
 * synchronous answer costs one call to `succeeded()`. `healthOf` finds the health again, so that
 * everyone sharing the store shares one watch.
 */
export function watchedStore(store: Store, health: StoreHealth): Store {
  const watch = <T>(run: () => MaybePromise<T>): MaybePromise<T> => {
    let answer: MaybePromise<T>;
    try {
      answer = run();
    } catch (error) {
      health.failed(error);
      throw error;
    }
    if (!isPromise(answer)) {
      health.succeeded();
      return answer;
    }
    return answer.then(
      (value) => {
        health.succeeded();
        return value;
      },
      (error: unknown) => {
        health.failed(error);
        throw error;
      },
    );
  };
  const watched: Store = {
    get: (key) => watch(() => store.get(key)),
    set: (key, value, options) => watch(() => store.set(key, value, options)),
    increment: (key, by, options) => watch(() => store.increment(key, by, options)),
    getMany: (keys) => watch(() => store.getMany(keys)),
    delete: (key) => watch(() => store.delete(key)),
    close: () => store.close?.(),
  };
  return Object.defineProperty(watched, HEALTH, { value: health });
}
