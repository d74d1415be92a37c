import { LRUCache } from 'lru-cache';
import { isPromise, type MaybePromise, type Store } from '../stores/store.js';

/** Where cached answers live: JSON text by key, each with its own TTL. */
export interface AnswerStore {
  get(key: string): MaybePromise<string | undefined>;
  set(key: string, json: string, ttlMs: number): void;
}

/** The in-memory answer store: bounded by entries and by bytes (the JSON's length), least recently used first out. */
export function memoryAnswers(maxEntries: number, maxBytes: number): AnswerStore {
  const lru = new LRUCache<string, string>({
    max: maxEntries,
    maxSize: maxBytes,
    sizeCalculation: (json, key) => json.length + key.length,
  });
  return {
    get: (key) => lru.get(key),
    set: (key, json, ttlMs) => {
      // an answer larger than the whole cache is not cached (lru-cache would refuse it anyway)
      if (json.length + key.length <= maxBytes) lru.set(key, json, { ttl: ttlMs });
    },
  };
}

/**
 * Answers kept in the router's store, so routers on one store (Redis) share them. A store that fails
 * makes a miss, never a failed call; `onError` is told.
 */
export function storeAnswers(store: Store, onError: (error: unknown) => void): AnswerStore {
  return {
    get(key) {
      try {
        const value = store.get<string>(key);
        if (!isPromise(value)) return value;
        return value.catch((error: unknown) => {
          onError(error);
          return undefined;
        });
      } catch (error) {
        onError(error);
        return undefined;
      }
    },
    set(key, json, ttlMs) {
      try {
        const written = store.set(key, json, { ttlMs });
        if (isPromise(written)) written.catch(onError);
      } catch (error) {
        onError(error);
      }
    },
  };
}

/**
 * Calls of one key in flight: the first identical miss calls upstream, the others wait for its answer
 * instead of calling too. Resolves with the answer's JSON, or undefined when the first call produced
 * nothing cacheable (then each waiting call goes upstream itself).
 */
export class Flights {
  readonly #flights = new Map<string, Promise<string | undefined>>();

  /** The flight of a key, if one is in the air. */
  get(key: string): Promise<string | undefined> | undefined {
    return this.#flights.get(key);
  }

  /** Starts a flight; `land` ends it with the answer (or undefined). Call `land` exactly once. */
  start(key: string): (json: string | undefined) => void {
    let land!: (json: string | undefined) => void;
    this.#flights.set(
      key,
      new Promise((resolve) => {
        land = resolve;
      }),
    );
    return (json) => {
      this.#flights.delete(key);
      land(json);
    };
  }
}
