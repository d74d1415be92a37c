const ONE = (): number => 1;

/**
 * lru-cache options that bound a cache to `entries` entries and grow its storage as entries come.
 * With `max` instead, lru-cache allocates storage for all of them when the cache is made: 100,000
 * entries hold about 2.5 MiB, and take milliseconds to make, before the first one is stored.
 *
 * @param name what sets the bound, for the error (`MemoryStore maxKeys`)
 * @throws RangeError naming `name` when `entries` is not a whole number of at least 1
 * @example new LRUCache<string, Entry>({ ...entryBound(10_000, 'cache size'), ttl: 60_000 })
 */
export function entryBound(
  entries: number,
  name: string,
): { maxSize: number; sizeCalculation: () => number } {
  if (!Number.isSafeInteger(entries) || entries < 1)
    throw new RangeError(`${name}: expected a whole number of entries, at least 1 (got ${entries})`);
  return { maxSize: entries, sizeCalculation: ONE };
}
