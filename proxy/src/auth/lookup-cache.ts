import { LRUCache } from 'lru-cache';

const MISSING = Object.freeze({ missing: true as const });
const ONE = (): number => 1;

/** A lookup's own failure, told apart from the abort that forgetting an entry gives a read in flight. */
class LookupFailure extends Error {
  constructor(readonly failure: unknown) {
    super('lookup failed');
  }
}

/** Reads of one id that a clear or invalidate may cut before one is answered. */
const READS = 3;

/**
 * Records by id, kept for a short TTL so that a warm lookup on the request path costs no database round
 * trip. Concurrent misses for one id share one query; an id with no record is remembered too (a client
 * retrying a bad key does not hammer the database). A change made through this process invalidates the
 * entry at once; other processes hear of it through `onInvalidate` (or see it within the TTL).
 */
export class LookupCache<V extends object> {
  readonly #cache: LRUCache<string, V | typeof MISSING>;
  readonly #onInvalidate: ((id: string) => void) | undefined;
  readonly #maxIdLength: number;

  constructor(
    lookup: (id: string) => Promise<V | undefined>,
    options: {
      ttlMs: number;
      max?: number;
      /**
       * The longest id a record can have: a longer one (caller input) is answered as having none, with
       * no lookup and nothing kept, so that megabyte ids cannot fill the cache.
       */
      maxIdLength?: number;
      /** Told of every `invalidate` (a record changed here): how other processes hear of it. */
      onInvalidate?: (id: string) => void;
    },
  ) {
    this.#onInvalidate = options.onInvalidate;
    this.#maxIdLength = options.maxIdLength ?? Number.POSITIVE_INFINITY;
    this.#cache = new LRUCache<string, V | typeof MISSING>({
      // bounded by entries as `max` would, but grown as entries come: `max` allocates room for all
      // 50,000 when the cache is made (about 1.3 MiB and milliseconds for each cache)
      maxSize: options.max ?? 50_000,
      sizeCalculation: ONE,
      ttl: Math.max(1, options.ttlMs),
      fetchMethod: async (id) => {
        try {
          return (await lookup(id)) ?? MISSING;
        } catch (failure) {
          throw new LookupFailure(failure);
        }
      },
    });
  }

  /**
   * The record, from memory when fresh, else from the database; undefined when there is none. A read
   * in flight when the entry is forgotten (`clear`, `invalidate`) is made again, so that it answers
   * with what holds after the change instead of failing the request.
   */
  async get(id: string): Promise<V | undefined> {
    if (id.length > this.#maxIdLength) return undefined;
    for (let read = 1; ; read++) {
      try {
        const entry = await this.#cache.fetch(id);
        return entry === undefined || entry === MISSING ? undefined : (entry as V);
      } catch (error) {
        if (error instanceof LookupFailure) throw error.failure;
        if (read === READS) throw error;
      }
    }
  }

  /**
   * What memory holds for `id` while it is fresh: the record, or null when `id` has none. Undefined
   * when it must be read with `get` (not held, stale, or being read): a warm lookup answered without a
   * promise.
   */
  cached(id: string): V | null | undefined {
    if (id.length > this.#maxIdLength) return null;
    const entry = this.#cache.get(id);
    if (entry === undefined) return undefined;
    return entry === MISSING ? null : (entry as V);
  }

  /** Forgets one id: the next lookup reads it again. */
  invalidate(id: string): void {
    this.#cache.delete(id);
    this.#onInvalidate?.(id);
  }

  /** Forgets every record (another process changed one): each is read again on its next use. */
  clear(): void {
    this.#cache.clear();
  }
}
