import { LRUCache } from 'lru-cache';
import { entryBound } from '../shared/entry-bound.js';
import type { Store, StoreWriteOptions } from './store.js';

/** Options of the in-memory store. */
export interface MemoryStoreOptions {
  /**
   * Most keys kept; the least recently used go first. A whole number of at least 1 (else the
   * constructor throws a RangeError naming it). Storage grows with the keys held, not to this bound.
   * @default 100_000
   */
  maxKeys?: number;
  /**
   * The clock TTLs are measured with, in milliseconds (only differences matter). Tests inject a fake
   * one to expire keys without waiting.
   * @default performance.now
   * @example let t = 0; const store = new MemoryStore({ now: () => t }); t += 60_000;
   */
  now?: () => number;
}

/**
 * The default store: process-local, bounded (LRU), with per-key TTLs. Every operation completes
 * synchronously (it returns values, not Promises), so it adds no I/O and no microtask to a call.
 * Values are kept as given, not copied: treat what you set and get as read-only (a Redis store
 * returns copies).
 */
export class MemoryStore implements Store {
  readonly #cache: LRUCache<string, { value: unknown }>;

  constructor(options: MemoryStoreOptions = {}) {
    const { now } = options;
    this.#cache = new LRUCache({
      ...entryBound(options.maxKeys ?? 100_000, 'MemoryStore maxKeys'),
      ...(now && {
        // lru-cache takes a start time of 0 to mean "no TTL" (so a clock starting at 0 is shifted by
        // 1 ms), and by default reuses one reading of the clock for 1 ms of real time, which would hide
        // a fake clock's jumps.
        perf: { now: () => now() + 1 },
        ttlResolution: 0,
      }),
    });
  }

  get<T = unknown>(key: string): T | undefined {
    return this.#cache.get(key)?.value as T | undefined;
  }

  set(key: string, value: unknown, options: StoreWriteOptions = {}): void {
    this.#cache.set(key, { value }, options.ttlMs ? { ttl: options.ttlMs } : undefined);
  }

  increment(key: string, by = 1, options: StoreWriteOptions = {}): number {
    const entry = this.#cache.get(key);
    if (entry) {
      entry.value = Number(entry.value) + by;
      return entry.value as number;
    }
    this.#cache.set(key, { value: by }, options.ttlMs ? { ttl: options.ttlMs } : undefined);
    return by;
  }

  getMany<T = unknown>(keys: readonly string[]): Array<T | undefined> {
    return keys.map((key) => this.#cache.get(key)?.value as T | undefined);
  }

  delete(key: string): void {
    this.#cache.delete(key);
  }

  close(): void {
    this.#cache.clear();
  }
}
