import { describe, expect, it } from 'vitest';
import { LookupCache } from '../../src/auth/lookup-cache.js';

describe('LookupCache', () => {
  it('keeps at most `max` records: the least recently read is looked up again', async () => {
    const lookups: string[] = [];
    const cache = new LookupCache(
      async (id) => {
        lookups.push(id);
        return { id };
      },
      { ttlMs: 60_000, max: 2 },
    );
    for (const id of ['a', 'b', 'a', 'c', 'a', 'b']) await cache.get(id);
    // 'b' was the least recently read when 'c' came in, so it alone was dropped
    expect(lookups).toEqual(['a', 'b', 'c', 'b']);
  });
});
