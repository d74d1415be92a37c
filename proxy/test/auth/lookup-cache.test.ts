import { describe, expect, it } from 'vitest';
import { LookupCache } from '../../src/auth/lookup-cache.js';
import type { Queryable } from '../../src/db/database.js';
import { MAX_OWNER_ID_LENGTH } from '../../src/db/owner-id.js';
import { OwnerCaches } from '../../src/limits/owner-caches.js';

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

  it('cached: a fresh record at once, null for an id known to have none, undefined until read', async () => {
    const cache = new LookupCache(async (id) => (id === 'a' ? { id } : undefined), { ttlMs: 60_000 });
    expect([cache.cached('a'), cache.cached('b')]).toEqual([undefined, undefined]);
    await cache.get('a');
    await cache.get('b');
    expect([cache.cached('a'), cache.cached('b')]).toEqual([{ id: 'a' }, null]);
    cache.invalidate('a');
    expect(cache.cached('a')).toBeUndefined();
  });

  it('cached: undefined while the record is being read, and after clear', async () => {
    const { cache } = recordingCache({ ttlMs: 60_000 });
    const reading = cache.get('a');
    expect(cache.cached('a')).toBeUndefined();
    await reading;
    cache.clear();
    expect(cache.cached('a')).toBeUndefined();
  });

  it('cached: undefined once the record is older than the TTL', async () => {
    const { cache } = recordingCache({ ttlMs: 200 });
    await cache.get('a');
    expect(cache.cached('a')).toEqual({ id: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(cache.cached('a')).toBeUndefined();
  });
});

describe('OwnerCaches', () => {
  it('looks up no customer longer than a customer id may be, but such a user', async () => {
    const asked: string[] = [];
    const db = {
      query: async (_sql: string, params?: unknown[]) => {
        asked.push(String(params?.[0]).length.toString());
        return { rows: [] };
      },
    } as unknown as Queryable;
    const owners = new OwnerCaches(db, { ttlMs: 60_000 });

    expect(await owners.customers.get('c'.repeat(MAX_OWNER_ID_LENGTH + 1))).toBeUndefined();
    await owners.customers.get('c'.repeat(MAX_OWNER_ID_LENGTH));
    await owners.users.get('u'.repeat(MAX_OWNER_ID_LENGTH + 1));

    expect(asked).toEqual([String(MAX_OWNER_ID_LENGTH), String(MAX_OWNER_ID_LENGTH + 1)]);
  });
});
