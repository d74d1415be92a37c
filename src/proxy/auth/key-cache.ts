import { LRUCache } from 'lru-cache';
import type { KeyIdentity } from './caller.js';

/** Reads one key by its hash from the database; undefined when there is none. */
export type KeyLookup = (keyHash: string) => Promise<KeyIdentity | undefined>;

const MISSING = Object.freeze({ missing: true as const });
type Entry = KeyIdentity | typeof MISSING;

/**
 * Virtual keys by hash, kept for a short TTL so a warm key costs no database round trip. Concurrent
 * misses for one key share one query; an unknown key is remembered too (a client retrying a bad key
 * does not hammer the database). Changes made through this proxy invalidate the entry at once.
 */
export class KeyCache {
  readonly #cache: LRUCache<string, Entry>;

  constructor(lookup: KeyLookup, options: { ttlMs: number; max?: number }) {
    this.#cache = new LRUCache<string, Entry>({
      max: options.max ?? 50_000,
      ttl: Math.max(1, options.ttlMs),
      fetchMethod: async (keyHash) => (await lookup(keyHash)) ?? MISSING,
    });
  }

  /** The key, from memory when fresh, else from the database. */
  async get(keyHash: string): Promise<KeyIdentity | undefined> {
    const entry = await this.#cache.fetch(keyHash);
    return entry === undefined || 'missing' in entry ? undefined : entry;
  }

  /** Forgets one key: the next call reads it again. */
  invalidate(keyHash: string): void {
    this.#cache.delete(keyHash);
  }
}
