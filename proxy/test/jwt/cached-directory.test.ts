import { MemoryJwtDirectory } from '@svc/router/jwt';
import { describe, expect, it } from 'vitest';
import { CachedJwtDirectory } from '../../src/jwt/cached-directory.js';

/** A cached directory over an in-memory one whose reads are counted. */
function setup() {
  const inner = new MemoryJwtDirectory();
  inner.upsertTeam({ team_id: 'ads', team_alias: 'Ads', models: [] });
  inner.upsertUser({ user_id: 'ada', user_role: 'internal_user' });
  inner.addTeamMember('ads', 'ada');
  const reads: string[] = [];
  const counted = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (String(name).startsWith('get') || String(name).startsWith('find')) reads.push(String(name));
        return value.apply(target, args);
      };
    },
  });
  return { inner, reads, cached: new CachedJwtDirectory(counted, { ttlMs: 60_000 }) };
}

describe('CachedJwtDirectory', () => {
  it('answers warm lookups from memory: the directory is read once per id', async () => {
    const { cached, reads } = setup();
    for (let i = 0; i < 3; i++) {
      expect(await cached.getTeam('ads')).toMatchObject({ team_id: 'ads' });
      expect(await cached.getUser('ada')).toMatchObject({ user_role: 'internal_user' });
      expect(await cached.getUserTeamIds('ada')).toEqual(['ads']);
      expect(await cached.findTeamsByAlias('Ads')).toHaveLength(1);
      expect(await cached.getTeam('ghost')).toBeUndefined();
    }
    expect(reads.sort()).toEqual(['findTeamsByAlias', 'getTeam', 'getTeam', 'getUser', 'getUserTeamIds']);
  });

  it('answers a warm lookup at once, without a promise; a cold one with a promise', async () => {
    const { cached } = setup();
    const cold = cached.getTeam('ads');
    expect(cold).toBeInstanceOf(Promise);
    await cold;
    expect(cached.getTeam('ads')).toMatchObject({ team_id: 'ads' });
    await cached.getTeam('ghost');
    expect(cached.getTeam('ghost')).toBeUndefined();
    await cached.findTeamsByAlias('nobody');
    expect(cached.findTeamsByAlias('nobody')).toEqual([]);
  });

  it('reads a user again after role sync wrote it', async () => {
    const { cached } = setup();
    await cached.getUser('ada');
    await cached.upsertUser({ user_id: 'ada', user_role: 'proxy_admin' });
    expect(await cached.getUser('ada')).toMatchObject({ user_role: 'proxy_admin' });
  });

  it("reads a user's teams again after team sync changed them", async () => {
    const { cached } = setup();
    await cached.getUserTeamIds('ada');
    await cached.removeTeamMember('ads', 'ada');
    expect(await cached.getUserTeamIds('ada')).toEqual([]);
  });

  it('reads everything again after clear() (a management route changed something)', async () => {
    const { cached, inner } = setup();
    await cached.getTeam('ads');
    inner.teams.set('ads', { ...inner.teams.get('ads')!, blocked: true });
    expect((await cached.getTeam('ads'))?.blocked).toBeFalsy();
    cached.clear();
    expect(await cached.getTeam('ads')).toMatchObject({ blocked: true });
  });
});
