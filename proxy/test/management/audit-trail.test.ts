import { describe, expect, it } from 'vitest';
import type { Caller } from '../../src/auth/caller.js';
import { actorOf, changesOf, keyName } from '../../src/routes/audit-trail.js';

const jwtAdmin = (fields: Record<string, string>): Caller =>
  ({
    kind: 'jwt',
    auth: { kind: 'admin', via: 'jwt', allowed_routes: [], scopes: [], roles: [], claims: {}, ...fields },
  }) as Caller;

describe('actorOf', () => {
  it('names the master key by a label, never the key', () => {
    expect(actorOf({ kind: 'master' })).toBe('master_key');
  });

  it('names an admin token by its user id, else its email, else as an admin token', () => {
    expect(actorOf(jwtAdmin({ user_id: 'ada', user_email: 'ada@example.com' }))).toBe('jwt:ada');
    expect(actorOf(jwtAdmin({ user_email: 'ada@example.com' }))).toBe('jwt:ada@example.com');
    expect(actorOf(jwtAdmin({}))).toBe('jwt:admin');
  });

  it('replaces an identity the database cannot store', () => {
    expect(actorOf(jwtAdmin({ user_id: 'a\u0000b' }))).toBe('jwt:(unstorable id)');
  });
});

describe('changesOf', () => {
  it('lists only the fields that differ, with both values, leaving out the id, hashes, spend and times', () => {
    const before = {
      key_hash: 'ab'.repeat(32),
      key_alias: 'a',
      rpm_limit: 1,
      spend: 1,
      updated_at: new Date(1),
    };
    const after = {
      key_hash: 'cd'.repeat(32),
      key_alias: 'a',
      rpm_limit: 2,
      spend: 2,
      updated_at: new Date(2),
    };
    expect(changesOf('key_hash', before, after)).toEqual({ rpm_limit: { before: 1, after: 2 } });
  });

  it('compares lists and objects by value and writes times as ISO text', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    expect(changesOf('id', { models: ['a'], expires_at: null }, { models: ['a'], expires_at: at })).toEqual({
      expires_at: { before: null, after: '2026-01-02T03:04:05.000Z' },
    });
  });

  it('gives null for the side of a created or deleted object', () => {
    expect(changesOf('team_id', undefined, { team_id: 't', max_budget: 3 })).toEqual({
      max_budget: { before: null, after: 3 },
    });
  });
});

describe('keyName', () => {
  it('names a key by its alias, else by the first 8 characters of its hash', () => {
    expect(keyName({ key_alias: 'prod', key_hash: 'f'.repeat(64) })).toBe('prod');
    expect(keyName({ key_alias: null, key_hash: `12345678${'f'.repeat(56)}` })).toBe('12345678');
  });
});
