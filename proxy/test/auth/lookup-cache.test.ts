import { describe, expect, it } from 'vitest';
import { LookupCache } from '../../src/auth/lookup-cache.js';

/** A cache whose lookup finds every id, and the ids it was asked for. */
function recordingCache(options: ConstructorParameters<typeof LookupCache>[1]) {
  const lookups: string[] = [];
  const cache = new LookupCache(async (id) => {
    lookups.push(id);
    return { id };
  }, options);
  return { cache, lookups };
}

describe('LookupCache', () => {
  it('keeps at most `max` records: the least recently read is looked up again', async () => {
    const { cache, lookups } = recordingCache({ ttlMs: 60_000, max: 2 });
    for (const id of ['a', 'b', 'a', 'c', 'a', 'b']) await cache.get(id);
    // 'b' was the least recently read when 'c' came in, so it alone was dropped
    expect(lookups).toEqual(['a', 'b', 'c', 'b']);
  });

  it('answers an id longer than maxIdLength as having no record, without a lookup or an entry', async () => {
    const { cache, lookups } = recordingCache({ ttlMs: 60_000, max: 1, maxIdLength: 3 });
    await cache.get('abc');

    expect(await cache.get('abcd')).toBeUndefined();
    // 'abc' is still the one entry: the long id took no room
    expect(await cache.get('abc')).toEqual({ id: 'abc' });
    expect(lookups).toEqual(['abc']);
  });
});
