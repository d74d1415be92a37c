// UserInfo (spec 5.9) and role/team sync (spec 5.8) through the proxy, against the proxy database:
// an opaque token of the identity provider resolves through its UserInfo endpoint; each request's
// token roles and groups are written to the user's stored role and team memberships.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startIdp, type TestIdp } from '../../../test/support/jwt/idp.js';
import { startTestProxy, type TestProxy } from '../harness.js';
import { bearer, chat, newestRow, send } from './jwt-helpers.js';

let idp: TestIdp;
let t: TestProxy;

beforeAll(async () => {
  idp = await startIdp();
  idp.setAccount('alice', { email: 'alice@acme.com', groups: ['team-a'] });
  t = await startTestProxy('pglite', {
    env: { JWT_PUBLIC_KEY_URL: idp.jwksUri },
    general_settings: {
      enable_jwt_auth: true,
      svc_jwtauth: {
        oidc_userinfo_enabled: true,
        oidc_userinfo_endpoint: idp.userinfoEndpoint,
        user_id_jwt_field: 'sub',
        user_email_jwt_field: 'email',
        team_ids_jwt_field: 'groups',
        user_roles_jwt_field: 'roles',
        sync_user_role_and_teams: true,
        jwt_litellm_role_map: [{ jwt_role: 'ADMIN_*', litellm_role: 'proxy_admin' }],
      },
    },
  });
  for (const team_id of ['team-a', 'team-b', 'team-c']) {
    expect((await send(t, 'POST', '/team/new', t.admin, { team_id })).status).toBe(200);
  }
  for (const user_id of ['alice', 'carol']) {
    expect((await send(t, 'POST', '/user/new', t.admin, { user_id, teams: ['team-c'] })).status).toBe(200);
  }
}, 60_000);
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

const userInfo = async (userId: string) =>
  (await send(t, 'GET', `/user/info?user_id=${userId}`, t.admin)).body as {
    user_role: string;
    teams: string[];
  };

describe('UserInfo', () => {
  test('an opaque token of the provider calls a model as the user and team its UserInfo names', async () => {
    const token = await idp.opaqueToken('alice');
    expect((await chat(t, bearer(token))).status).toBe(200);
    const row = await newestRow(t, '?user_id=alice', 1);
    expect([row.user_id, row.team_id]).toEqual(['alice', 'team-a']);
  });

  test('an opaque token the provider never issued is 401', async () => {
    expect((await chat(t, bearer('opaque-token-nobody-issued'))).status).toBe(401);
  });

  test('a value shaped like a virtual key is looked up as one, never sent to the provider', async () => {
    const before = idp.hits['/me'] ?? 0;
    const { status, body } = await chat(t, bearer('sk-svc-mistyped-key'));
    expect([status, (body.error as { code: string }).code, idp.hits['/me'] ?? 0]).toEqual([
      401,
      'invalid_api_key',
      before,
    ]);
  });
});

describe('role and team sync', () => {
  test("the token's groups become the user's teams, replacing the ones it no longer names", async () => {
    const token = await idp.sign({
      sub: 'carol',
      email: 'carol@acme.com',
      roles: [],
      groups: ['team-a', 'team-b'],
    });
    expect((await chat(t, bearer(token))).status).toBe(200);
    expect((await userInfo('carol')).teams.toSorted()).toEqual(['team-a', 'team-b']);
  });

  test('a role matching jwt_litellm_role_map makes the user an admin on this request', async () => {
    const token = await idp.sign({ sub: 'carol', email: 'carol@acme.com', roles: ['ADMIN_EU'], groups: [] });
    const { status } = await send(t, 'POST', '/key/generate', bearer(token), {});
    expect([status, (await userInfo('carol')).user_role]).toEqual([200, 'proxy_admin']);
  });
});
