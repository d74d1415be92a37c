// Who a bearer value is, with JWT auth on: the master key, a virtual key by hash, or a token for the JWT
// module, whichever shape the master key has.
import type { AuthContext, JwtAuth } from '@svc/router/jwt';
import { describe, expect, it } from 'vitest';
import { type AuthInput, createAuthenticate } from '../../src/auth/authenticate.js';
import { KeyCache } from '../../src/auth/key-cache.js';
import { TeamCache } from '../../src/auth/team-cache.js';
import { hashKey } from '../../src/auth/virtual-key.js';
import { keyIdentity, teamStatus } from './key-identity.js';

const VIRTUAL_KEY = 'sk-svc-0123456789abcdef';
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl';
const key = keyIdentity({ keyHash: hashKey(VIRTUAL_KEY) });
const teamContext = { kind: 'team', team_id: 'team-a' } as AuthContext;
const CHECKED = Object.freeze({});

/**
 * Authentication with JWT auth on; `tokens` counts what the JWT module authenticated, `checked` what
 * it only checked (before a body).
 */
function setup(masterKey: string) {
  const tokens: string[] = [];
  const checked: string[] = [];
  const given: unknown[] = [];
  const auth = {
    authenticate: async (request: { headers: AuthInput['headers']; checked?: unknown }) => {
      tokens.push(String(request.headers.authorization));
      given.push(request.checked);
      return teamContext;
    },
    checkCredential: async (request: { headers: AuthInput['headers'] }) => {
      checked.push(String(request.headers.authorization));
      return CHECKED;
    },
  } as unknown as JwtAuth;
  const authenticate = createAuthenticate({
    masterKey,
    keys: new KeyCache(async (hash) => (hash === key.keyHash ? key : undefined), { ttlMs: 60_000 }),
    now: Date.now,
    jwt: { auth, opaqueTokens: false },
  });
  const requestWith = (value: string): AuthInput => ({
    headers: { authorization: `Bearer ${value}` },
    url: '/v1/chat/completions',
    method: 'POST',
  });
  const as = (value: string) => authenticate(requestWith(value));
  return { as, tokens, checked, given, authenticate, requestWith };
}

describe('authenticate, JWT auth on', () => {
  it('sends a JWT to the JWT module when the master key is not shaped as one', async () => {
    const { as, tokens } = setup('sk-master-1234');
    expect(await as(TOKEN)).toEqual({ kind: 'jwt', auth: teamContext });
    expect(tokens).toEqual([`Bearer ${TOKEN}`]);
  });

  it('takes the master key for the master key', async () => {
    const { as, tokens } = setup('sk-master-1234');
    expect(await as('sk-master-1234')).toEqual({ kind: 'master' });
    expect(tokens).toEqual([]);
  });

  it('takes a master key shaped as a JWT for the master key, not for a token', async () => {
    const master = 'aaaa.bbbb.cccc';
    const { as, tokens } = setup(master);
    expect(await as(master)).toEqual({ kind: 'master' });
    expect(tokens).toEqual([]);
  });

  it('still sends other JWTs to the JWT module when the master key is shaped as one', async () => {
    const { as, tokens } = setup('aaaa.bbbb.cccc');
    expect(await as(TOKEN)).toEqual({ kind: 'jwt', auth: teamContext });
    expect(tokens).toEqual([`Bearer ${TOKEN}`]);
  });

  it('looks a virtual key up by its hash', async () => {
    const { as, tokens } = setup('sk-master-1234');
    expect(await as(VIRTUAL_KEY)).toEqual({ kind: 'key', key });
    expect(tokens).toEqual([]);
  });

  it('checks a JWT before the body, then the route authenticates it with the model and the check', async () => {
    const { authenticate, requestWith, tokens, checked, given } = setup('sk-master-1234');
    const request = requestWith(TOKEN);
    await authenticate.beforeBody(request);
    expect([checked, tokens]).toEqual([[`Bearer ${TOKEN}`], []]);
    expect(await authenticate(request, 'gpt-4o')).toEqual({ kind: 'jwt', auth: teamContext });
    expect(tokens).toEqual([`Bearer ${TOKEN}`]);
    expect(given).toEqual([CHECKED]);
  });

  it("remembers a key's caller found before the body for the request's route", async () => {
    let lookups = 0;
    const authenticate = createAuthenticate({
      masterKey: 'sk-master-1234',
      keys: new KeyCache(
        async (hash) => {
          lookups += 1;
          return hash === key.keyHash ? key : undefined;
        },
        { ttlMs: 0 },
      ),
      now: Date.now,
    });
    const request: AuthInput = {
      headers: { authorization: `Bearer ${VIRTUAL_KEY}` },
      url: '/v1/chat/completions',
      method: 'POST',
    };
    await authenticate.beforeBody(request);
    expect(await authenticate(request, 'gpt-4o')).toEqual({ kind: 'key', key });
    expect(lookups).toBe(1);
  });
});

describe('authenticate, a key already in memory', () => {
  /** Authentication of one virtual key of team `t`, its clock and its team's status settable. */
  function warm(keyFields: Partial<ReturnType<typeof keyIdentity>> = {}) {
    const clock = { now: 1_000 };
    const team = teamStatus({ models: ['gpt-4o'] });
    const teamKey = keyIdentity({ keyHash: hashKey(VIRTUAL_KEY), teamId: 't', ...keyFields });
    const keys = new KeyCache(async (hash) => (hash === teamKey.keyHash ? teamKey : undefined), {
      ttlMs: 60_000,
    });
    const teams = new TeamCache(async () => ({ ...team }), { ttlMs: 60_000 });
    const authenticate = createAuthenticate({
      masterKey: 'sk-master-1234',
      keys,
      teams,
      now: () => clock.now,
    });
    const request = (value = VIRTUAL_KEY): AuthInput => ({
      headers: { authorization: `Bearer ${value}` },
      url: '/v1/chat/completions',
      method: 'POST',
    });
    return { authenticate, request, clock, team, teams, keys, teamKey };
  }

  it('gives the caller at once, without a promise, once the key and its team were read', async () => {
    const { authenticate, request, teamKey } = warm();
    expect(await authenticate(request())).toEqual({ kind: 'key', key: teamKey, teamModels: ['gpt-4o'] });
    expect(authenticate(request())).toEqual({ kind: 'key', key: teamKey, teamModels: ['gpt-4o'] });
    expect(authenticate.beforeBody(request())).toBeUndefined();
  });

  it('still refuses it, as a rejected promise, once it has expired', async () => {
    const { authenticate, request, clock } = warm({ expiresAt: new Date(2_000) });
    await authenticate(request());
    clock.now = 2_000;
    const refused = authenticate(request());
    expect(refused).toBeInstanceOf(Promise);
    await expect(refused).rejects.toMatchObject({ status: 401, code: 'expired_api_key' });
    await expect(authenticate.beforeBody(request())).rejects.toMatchObject({ code: 'expired_api_key' });
  });

  it("still refuses it once its team is blocked (the team's record read again)", async () => {
    const { authenticate, request, team, teams } = warm();
    await authenticate(request());
    team.blocked = true;
    teams.invalidate('t');
    await expect(authenticate(request())).rejects.toMatchObject({ status: 403, code: 'team_blocked' });
    await expect(authenticate(request())).rejects.toMatchObject({ status: 403, code: 'team_blocked' });
  });

  it('refuses a key blocked since it was read, once its record is read again', async () => {
    const { authenticate, request, keys, teamKey } = warm();
    await authenticate(request());
    teamKey.blocked = true;
    keys.invalidate(teamKey.keyHash);
    await expect(authenticate(request())).rejects.toMatchObject({ status: 403, code: 'key_blocked' });
    const again = authenticate(request());
    expect(again).toBeInstanceOf(Promise);
    await expect(again).rejects.toMatchObject({ code: 'key_blocked' });
  });

  it('refuses an unknown key at once and again, as a rejected promise', async () => {
    const { authenticate, request } = warm();
    await expect(authenticate(request('sk-svc-unknown'))).rejects.toMatchObject({ status: 401 });
    const again = authenticate(request('sk-svc-unknown'));
    expect(again).toBeInstanceOf(Promise);
    await expect(again).rejects.toMatchObject({ code: 'invalid_api_key' });
  });

  it('gives the master key its caller at once', () => {
    const { authenticate, request } = warm();
    expect(authenticate(request('sk-master-1234'))).toEqual({ kind: 'master' });
  });
});
