// OAuth2 routing overrides (spec 5.6) and OAuth2 token validation (CONTRACT 5.6). The provider's
// UserInfo endpoint serves as the OAuth2 token info endpoint: GET with the bearer token, 2xx or not.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryJwtDirectory } from '../../src/jwt/index.js';
import { authFor, request } from '../support/jwt/auth.js';
import { startIdp, type TestIdp } from '../support/jwt/idp.js';
import { expectRefused } from './helpers/refusal.js';

let idp: TestIdp;
beforeAll(async () => {
  idp = await startIdp();
  idp.setAccount('svc-account', { email: 'svc@acme.com' });
});
afterAll(() => idp.close());

const tokenInfo = () => idp.hits['/me'] ?? 0;
const directory = () =>
  new MemoryJwtDirectory({ teams: [{ team_id: 'team-a', models: ['gpt-4o'] }, { team_id: 'ads' }] });
const overrides = (rule: Record<string, unknown>) => ({
  oauth2_token_info_endpoint: idp.userinfoEndpoint,
  routing_overrides: [{ iss: idp.issuer, path: 'oauth2' as const, ...rule }],
});

/** The token info endpoint answers these fields for any token (an introspection-style answer). */
async function withTokenInfo<T>(answer: Record<string, unknown>, run: () => Promise<T>): Promise<T> {
  idp.faults.set('/me', { body: JSON.stringify(answer) });
  try {
    return await run();
  } finally {
    idp.faults.delete('/me');
  }
}

describe('routing_overrides: which JWTs go to OAuth2', () => {
  test('a matching JWT on a model route is validated by the token info endpoint, not by signature', async () => {
    const auth = authFor(idp, overrides({ client_id: 'svc-*' }), directory());
    const token = await idp.sign({ client_id: 'svc-1' });
    const ctx = await withTokenInfo({ sub: 'svc-1', team_id: 'ads' }, () =>
      auth.authenticate(request(token)),
    );
    expect(ctx).toMatchObject({ via: 'oauth2', kind: 'team', team_id: 'ads', user_id: 'svc-1' });
    expect(idp.authorizations['/me']).toBe(`Bearer ${token}`);
  });

  test('selectors are AND-ed: iss matches but client_id does not, so normal JWT validation runs', async () => {
    const auth = authFor(idp, overrides({ client_id: 'svc-*' }), directory());
    const before = tokenInfo();
    const ctx = await auth.authenticate(request(await idp.sign({ client_id: 'ads' })));
    expect([ctx.via, ctx.team_id, tokenInfo()]).toEqual(['jwt', 'ads', before]);
  });

  test('a list selector matches when the claim matches any entry', async () => {
    const auth = authFor(idp, overrides({ client_id: ['batch', 'svc-?'] }), directory());
    const ctx = await withTokenInfo({ sub: 's' }, async () =>
      auth.authenticate(request(await idp.sign({ client_id: 'svc-7' }))),
    );
    expect(ctx.via).toBe('oauth2');
  });

  test('`*` and `?` are shell-style and case-sensitive', async () => {
    const auth = authFor(idp, overrides({ client_id: 'SVC-*' }), directory());
    const before = tokenInfo();
    await expectRefused(
      auth.authenticate(request(await idp.sign({ client_id: 'svc-1' }))),
      403,
      'team_not_found',
    );
    expect(tokenInfo()).toBe(before);
  });

  test('an iss wildcard selects every issuer it covers', async () => {
    const auth = authFor(
      idp,
      { ...overrides({}), routing_overrides: [{ iss: 'http://127.0.0.1:*', path: 'oauth2' as const }] },
      directory(),
    );
    const ctx = await withTokenInfo({ sub: 's' }, async () => auth.authenticate(request(await idp.sign({}))));
    expect(ctx.via).toBe('oauth2');
  });

  test('a space-separated scope claim is split for the scope selector', async () => {
    const auth = authFor(idp, overrides({ scope: 'models.invoke' }), directory());
    const ctx = await withTokenInfo({ sub: 's' }, async () =>
      auth.authenticate(request(await idp.sign({ scope: 'openid models.invoke' }))),
    );
    expect(ctx.via).toBe('oauth2');
  });

  test('aud and client_id are never split', async () => {
    const before = tokenInfo();
    const byAud = authFor(idp, overrides({ aud: 'api' }), directory());
    await byAud.authenticate(request(await idp.sign({ aud: 'api other', client_id: 'ads' })));
    const byClient = authFor(idp, overrides({ client_id: 'svc' }), directory());
    await expectRefused(
      byClient.authenticate(request(await idp.sign({ client_id: 'svc other' }))),
      403,
      'team_not_found',
    );
    expect(tokenInfo()).toBe(before);
  });

  test('an aud list matches when any entry matches', async () => {
    const auth = authFor(idp, overrides({ aud: 'api://m2m' }), directory());
    const ctx = await withTokenInfo({ sub: 's' }, async () =>
      auth.authenticate(request(await idp.sign({ aud: ['x', 'api://m2m'] }))),
    );
    expect(ctx.via).toBe('oauth2');
  });

  test('a selector whose claim the token lacks does not match', async () => {
    const auth = authFor(idp, overrides({ scope: 'models.invoke' }), directory());
    const ctx = await auth.authenticate(request(await idp.sign({ client_id: 'ads' })));
    expect(ctx.via).toBe('jwt');
  });

  test('on routes other than model and info routes, a matching JWT is validated as a JWT', async () => {
    const auth = authFor(idp, overrides({}), directory());
    const before = tokenInfo();
    const ctx = await auth.authenticate(
      request(await idp.sign({ scope: 'svc_proxy_admin' }), '/key/generate'),
    );
    expect([ctx.via, ctx.kind, tokenInfo()]).toEqual(['jwt', 'admin', before]);
  });

  test('info routes are covered like model routes', async () => {
    const auth = authFor(idp, overrides({}), directory());
    const ctx = await withTokenInfo({ sub: 's' }, async () =>
      auth.authenticate(request(await idp.sign({}), '/key/info', { method: 'GET' })),
    );
    expect(ctx.via).toBe('oauth2');
  });

  test('claims only choose the path: a forged matching JWT is refused by the token info endpoint', async () => {
    const auth = authFor(idp, overrides({}), directory());
    const forged = await idp.sign({ client_id: 'ads', scope: 'svc_proxy_admin' }, { kid: 'attacker' });
    await expectRefused(auth.authenticate(request(forged)), 401, 'oauth2_token_invalid', forged);
  });
});

describe('OAuth2 token validation', () => {
  const global = () => ({ enable_oauth2_auth: true, oauth2_token_info_endpoint: idp.userinfoEndpoint });

  test('global mode: an opaque token on a model route is validated by the token info endpoint', async () => {
    const ctx = await authFor(idp, global(), directory()).authenticate(
      request(await idp.opaqueToken('svc-account')),
    );
    expect(ctx).toMatchObject({ via: 'oauth2', kind: 'internal_user', user_id: 'svc-account' });
  });

  test('global mode: JWTs are still verified as JWTs (OAuth2 alongside, not instead)', async () => {
    const before = tokenInfo();
    const ctx = await authFor(idp, global(), directory()).authenticate(
      request(await idp.sign({ client_id: 'ads' })),
    );
    expect([ctx.via, tokenInfo()]).toEqual(['jwt', before]);
  });

  test('global mode: an opaque token on a management route is not a JWT: 401', async () => {
    await expectRefused(
      authFor(idp, global(), directory()).authenticate(
        request(await idp.opaqueToken('svc-account'), '/key/generate'),
      ),
      401,
      'not_a_jwt',
    );
  });

  test('a token the endpoint refuses is 401', async () => {
    await expectRefused(
      authFor(idp, global(), directory()).authenticate(request('not-a-real-token')),
      401,
      'oauth2_token_invalid',
    );
  });

  test('active: false is 401', async () => {
    const auth = authFor(idp, global(), directory());
    await withTokenInfo({ active: false, sub: 's' }, () =>
      expectRefused(auth.authenticate(request('opaque-1')), 401, 'oauth2_token_invalid'),
    );
  });

  test('an endpoint that is down is 503', async () => {
    idp.faults.set('/me', { status: 500 });
    try {
      await expectRefused(
        authFor(idp, global(), directory()).authenticate(request('opaque-2')),
        503,
        'identity_provider_unavailable',
      );
    } finally {
      idp.faults.delete('/me');
    }
  });

  test('the role field proxy_admin makes an admin; team_id a team held to its models', async () => {
    const auth = authFor(idp, { ...global(), admin_allowed_routes: ['llm_api_routes'] }, directory());
    const admin = await withTokenInfo({ sub: 'root', role: 'proxy_admin' }, () =>
      auth.authenticate(request('opaque-admin')),
    );
    expect(admin.kind).toBe('admin');
    await withTokenInfo({ sub: 'svc', team_id: 'team-a' }, () =>
      expectRefused(
        auth.authenticate(request('opaque-team', '/v1/chat/completions', { model: 'claude' })),
        403,
        'model_not_allowed',
      ),
    );
  });

  test('the field names come from the oauth_user_*_field_name settings', async () => {
    const auth = authFor(
      idp,
      { ...global(), oauth_user_id_field_name: 'uid', oauth_user_team_id_field_name: 'tenant' },
      directory(),
    );
    const ctx = await withTokenInfo({ uid: 'u-1', tenant: 'ads' }, () =>
      auth.authenticate(request('opaque-3')),
    );
    expect(ctx).toMatchObject({ kind: 'team', team_id: 'ads', user_id: 'u-1' });
  });

  test('answers are reused (at most 60 s): one endpoint call for repeated requests', async () => {
    const auth = authFor(idp, global(), directory());
    const token = await idp.opaqueToken('svc-account');
    const before = tokenInfo();
    for (let i = 0; i < 3; i++) await auth.authenticate(request(token));
    expect(tokenInfo()).toBe(before + 1);
  });

  test('an answer whose exp has passed is 401', async () => {
    const auth = authFor(idp, global(), directory());
    const exp = Math.floor(Date.now() / 1000) - 5;
    await withTokenInfo({ sub: 's', exp }, () =>
      expectRefused(auth.authenticate(request('opaque-4')), 401, 'token_expired'),
    );
  });
});
