import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { entryBound } from '../shared/entry-bound.js';

/**
 * A bounded cache whose entries each live a given time. A time of zero (or less) stores nothing: a TTL
 * setting of 0 turns the cache off.
 */
export class TtlCache<V extends object> {
  private readonly cache: LRUCache<string, V>;

  constructor(max = 10_000) {
    this.cache = new LRUCache<string, V>(entryBound(max, 'TtlCache max'));
  }

  get(key: string): V | undefined {
    return this.cache.get(key);
  }

  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs > 0 && Number.isFinite(ttlMs))
      this.cache.set(key, value, { ttl: Math.max(1, Math.floor(ttlMs)) });
  }

  clear(): void {
    this.cache.clear();
  }
}

/** A cache key for a bearer token: its SHA-256, so no token is kept in memory as it was sent. */
export function tokenKey(token: string): string {
  // the one-shot digest: no Hash object per call (every authenticated request computes this)
  return hash('sha256', token, 'base64url');
}

/** Milliseconds until a claims set's `exp`, or Infinity when it has none. */
export function msUntilExp(claims: { exp?: unknown } | undefined): number {
  return typeof claims?.exp === 'number' ? claims.exp * 1000 - Date.now() : Number.POSITIVE_INFINITY;
}
