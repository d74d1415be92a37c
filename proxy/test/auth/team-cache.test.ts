import { describe, expect, it } from 'vitest';
import { TeamCache, type TeamStatus } from '../../src/auth/team-cache.js';
import { teamStatus } from './key-identity.js';

const open: TeamStatus = teamStatus();
const blocked: TeamStatus = { ...open, blocked: true };

/** A cache over a table the test changes, counting lookups. */
function setup(ttlMs = 60_000) {
  const table = new Map<string, TeamStatus>([['ads', open]]);
  let lookups = 0;
  const cache = new TeamCache(
    async (teamId) => {
      lookups++;
      return table.get(teamId);
    },
    { ttlMs },
  );
  return { table, cache, lookups: () => lookups };
}

describe('TeamCache', () => {
  it('answers a warm team from memory, without a second lookup', async () => {
    const { cache, lookups } = setup();
    await cache.get('ads');
    expect(await cache.get('ads')).toEqual(open);
    expect(lookups()).toBe(1);
  });

  it('keeps the old answer until invalidated, then reads the change', async () => {
    const { table, cache } = setup();
    await cache.get('ads');
    table.set('ads', blocked);
    expect(await cache.get('ads')).toEqual(open);
    cache.invalidate('ads');
    expect(await cache.get('ads')).toEqual(blocked);
  });

  it('reads the change once the TTL has passed', async () => {
    const { table, cache } = setup(20);
    await cache.get('ads');
    table.set('ads', blocked);
    await new Promise((r) => setTimeout(r, 40));
    expect(await cache.get('ads')).toEqual(blocked);
  });

  it('remembers a missing team as undefined', async () => {
    const { cache, lookups } = setup();
    expect(await cache.get('ghost')).toBeUndefined();
    expect(await cache.get('ghost')).toBeUndefined();
    expect(lookups()).toBe(1);
  });

  it('shares one lookup between concurrent misses', async () => {
    const { cache, lookups } = setup();
    await Promise.all([cache.get('ads'), cache.get('ads'), cache.get('ads')]);
    expect(lookups()).toBe(1);
  });

  it.each(['clear', 'invalidate'] as const)(
    'answers a lookup in flight when %s runs meanwhile, with what the table holds after the change',
    async (forget) => {
      const table = new Map<string, TeamStatus>([['ads', open]]);
      let release: () => void = () => {};
      const held = new Promise<void>((r) => {
        release = r;
      });
      let lookups = 0;
      const cache = new TeamCache(
        async (teamId) => {
          if (++lookups === 1) await held;
          return table.get(teamId);
        },
        { ttlMs: 60_000 },
      );
      const answer = cache.get('ads');
      table.set('ads', blocked);
      if (forget === 'clear') cache.clear();
      else cache.invalidate('ads');
      release();
      expect(await answer).toEqual(blocked);
      expect(lookups).toBe(2);
    },
  );

  it('passes a failed lookup on as is', async () => {
    const failure = new Error('the database is not answering');
    const cache = new TeamCache(() => Promise.reject(failure), { ttlMs: 60_000 });
    await expect(cache.get('ads')).rejects.toBe(failure);
  });
});
