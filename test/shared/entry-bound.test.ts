import { LRUCache } from 'lru-cache';
import { describe, expect, it } from 'vitest';
import { entryBound } from '../../src/shared/entry-bound.js';

describe('entryBound', () => {
  it('keeps at most that many entries, the least recently used going first', () => {
    const cache = new LRUCache<string, { n: number }>(entryBound(2, 'bound'));
    cache.set('a', { n: 1 });
    cache.set('b', { n: 2 });
    cache.get('a');
    cache.set('c', { n: 3 });
    expect([...cache.keys()].sort()).toEqual(['a', 'c']);
  });

  it('makes no room for entries before they come', () => {
    const before = process.memoryUsage().heapUsed;
    // storage for a million entries each, made up front, would be tens of MiB per cache
    const caches = Array.from(
      { length: 10 },
      () => new LRUCache<string, object>(entryBound(1_000_000, 'bound')),
    );
    const grown = process.memoryUsage().heapUsed - before;
    expect(caches).toHaveLength(10);
    expect(grown).toBeLessThan(4 * 1024 * 1024);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a bound of %s, naming what sets it', (entries) => {
    expect(() => entryBound(entries, 'MemoryStore maxKeys')).toThrow(
      new RangeError(`MemoryStore maxKeys: expected a whole number of entries, at least 1 (got ${entries})`),
    );
  });
});
