// UserInfo (spec 5.9): opaque tokens and JWTs lacking identity claims get their claims from the identity
// provider's UserInfo endpoint, mapped with the *_jwt_field settings and cached oidc_userinfo_cache_ttl.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryJwtDirectory } from '../../src/jwt/index.js';
import { authFor, request } from '../support/jwt/auth.js';
import { startIdp, type TestIdp } from '../support/jwt/idp.js';
import { expectRefused } from './helpers/refusal.js';

let idp: TestIdp;
beforeAll(async () => {
  idp = await startIdp();
  idp.setAccount('alice', { email: 'alice@acme.com', roles: ['gateway.user'], groups: ['team-a'] });
});
afterAll(() => idp.close());

const userinfo = () => ({
  oidc_userinfo_enabled: true,
  oidc_userinfo_endpoint: idp.userinfoEndpoint,
  user_id_jwt_field: 'sub',
  user_email_jwt_field: 'email',
  team_ids_jwt_field: 'groups',
});
const directory = () => new MemoryJwtDirectory({ teams: [{ team_id: 'team-a' }] });
const hits = () => idp.hits['/me'] ?? 0;

describe('opaque tokens', () => {
  test("are resolved from the provider's UserInfo claims", async () => {
    const token = await idp.opaqueToken('alice');
    const ctx = await authFor(idp, userinfo(), directory()).authenticate(
      request(token, '/v1/chat/completions', { model: 'gpt-4o' }),
    );
    expect(ctx).toMatchObject({
      via: 'userinfo',
      kind: 'team',
      team_id: 'team-a',
      user_id: 'alice',
      user_email: 'alice@acme.com',
    });
  });

  test('are sent to UserInfo as the bearer token', async () => {
    const token = await idp.opaqueToken('alice');
    await authFor(idp, userinfo(), directory()).authenticate(request(token));
    expect(idp.authorizations['/me']).toBe(`Bearer ${token}`);
  });

  test('UserInfo roles feed RBAC', async () => {
    const auth = authFor(
      idp,
      {
        ...userinfo(),
        enforce_rbac: true,
        roles_jwt_field: 'roles',
        role_mappings: [{ role: 'gateway.user', internal_role: 'internal_user' }],
      },
      directory(),
    );
    const ctx = await auth.authenticate(request(await idp.opaqueToken('alice')));
    expect(ctx).toMatchObject({ kind: 'internal_user', internal_role: 'internal_user' });
  });

  test('answers are cached per token for oidc_userinfo_cache_ttl', async () => {
    // a TTL that three authentications on a loaded CI machine stay well within
    const auth = authFor(idp, { ...userinfo(), oidc_userinfo_cache_ttl: 0.25 }, directory());
    const token = await idp.opaqueToken('alice');
    const before = hits();
    for (let i = 0; i < 3; i++) await auth.authenticate(request(token));
    expect(hits()).toBe(before + 1);
    await new Promise((r) => setTimeout(r, 300));
    await auth.authenticate(request(token));
    expect(hits()).toBe(before + 2);
  });

  test('a token the provider does not know is 401', async () => {
    const err = await expectRefused(
      authFor(idp, userinfo(), directory()).authenticate(request('opaque-token-nobody-issued')),
      401,
      'invalid_token',
    );
    expect(err.message).toBe('The identity provider did not accept the token (UserInfo)');
  });

  test('a UserInfo endpoint that is down is 503', async () => {
    idp.faults.set('/me', { status: 502 });
    try {
      await expectRefused(
        authFor(idp, userinfo(), directory()).authenticate(request(await idp.opaqueToken('alice'))),
        503,
        'identity_provider_unavailable',
      );
    } finally {
      idp.faults.delete('/me');
    }
  });

  test('without oidc_userinfo_enabled an opaque token is not a JWT: 401', async () => {
    await expectRefused(
      authFor(idp, {}, directory()).authenticate(request(await idp.opaqueToken('alice'))),
      401,
      'not_a_jwt',
    );
  });
});

describe('JWTs lacking identity claims', () => {
  test('get the missing claims from UserInfo; the verified claims win where both have one', async () => {
    idp.faults.set('/me', {
      body: JSON.stringify({ sub: 'from-userinfo', email: 'alice@acme.com', groups: ['team-a'] }),
    });
    try {
      const token = await idp.sign({ sub: 'alice' });
      const ctx = await authFor(idp, userinfo(), directory()).authenticate(request(token));
      expect(ctx).toMatchObject({
        via: 'jwt',
        user_id: 'alice',
        user_email: 'alice@acme.com',
        team_id: 'team-a',
      });
      expect(idp.authorizations['/me']).toBe(`Bearer ${token}`);
    } finally {
      idp.faults.delete('/me');
    }
  });

  test('JWTs that carry every configured identity claim make no UserInfo call', async () => {
    const before = hits();
    const token = await idp.sign({ sub: 'alice', email: 'alice@acme.com', groups: ['team-a'] });
    await authFor(idp, userinfo(), directory()).authenticate(request(token));
    expect(hits()).toBe(before);
  });
});
