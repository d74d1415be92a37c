const ONE = (): number => 1;

/**
 * lru-cache options that bound a cache to `entries` entries and grow its storage as entries come.
 * With `max` instead, lru-cache allocates storage for all of them when the cache is made: 100,000
 * entries hold about 2.5 MiB, and take milliseconds to make, before the first one is stored.
 *
 * @example new LRUCache<string, Entry>({ ...entryBound(10_000), ttl: 60_000 })
 */
export function entryBound(entries: number): { maxSize: number; sizeCalculation: () => number } {
  return { maxSize: entries, sizeCalculation: ONE };
}
