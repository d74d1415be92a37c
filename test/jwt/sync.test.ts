// Role and team sync (spec 5.8): on each request the stored role follows the token's roles through
// jwt_litellm_role_map, and memberships follow the token's teams; nothing is frozen at login.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryJwtDirectory } from '../../src/jwt/index.js';
import { authFor, request } from '../support/jwt/auth.js';
import { startIdp, type TestIdp } from '../support/jwt/idp.js';

let idp: TestIdp;
beforeAll(async () => {
  idp = await startIdp();
});
afterAll(() => idp.close());

const sync = {
  sync_user_role_and_teams: true,
  user_id_jwt_field: 'sub',
  user_roles_jwt_field: 'realm_access.roles',
  team_ids_jwt_field: 'groups',
  team_allowed_routes: ['openai_routes', 'info_routes'],
  jwt_litellm_role_map: [
    { jwt_role: 'ADMIN_*', litellm_role: 'proxy_admin' as const },
    { jwt_role: 'viewer-?', litellm_role: 'internal_user_view_only' as const },
  ],
};
const directory = () =>
  new MemoryJwtDirectory({
    users: [{ user_id: 'alice', user_role: 'internal_user' }],
    teams: [{ team_id: 'team-a' }, { team_id: 'team-b' }, { team_id: 'team-c' }],
    memberships: [['team-c', 'alice']],
  });
const token = (roles: string[], groups: string[] = []) =>
  idp.sign({ sub: 'alice', realm_access: { roles }, groups });

describe('role', () => {
  test('a token role matching an fnmatch pattern sets the stored role, effective on this request', async () => {
    const dir = directory();
    const ctx = await authFor(idp, sync, dir).authenticate(
      request(await token(['ADMIN_EU']), '/key/generate'),
    );
    expect([ctx.kind, ctx.user_role, dir.users.get('alice')?.user_role]).toEqual([
      'admin',
      'proxy_admin',
      'proxy_admin',
    ]);
  });

  test('a role taken away at the identity provider is taken away on the next request', async () => {
    const dir = directory();
    const auth = authFor(idp, sync, dir);
    await auth.authenticate(request(await token(['ADMIN_EU']), '/key/generate'));
    const ctx = await auth.authenticate(request(await token(['developer']), '/v1/chat/completions'));
    expect([ctx.kind, dir.users.get('alice')?.user_role]).toEqual(['internal_user', 'internal_user']);
  });

  test('`?` matches one character and patterns are case-sensitive', async () => {
    const dir = directory();
    const auth = authFor(idp, sync, dir);
    await auth.authenticate(request(await token(['viewer-1']), '/key/info', { method: 'GET' }));
    expect(dir.users.get('alice')?.user_role).toBe('internal_user_view_only');
    await auth.authenticate(request(await token(['admin_eu']), '/key/info', { method: 'GET' }));
    expect(dir.users.get('alice')?.user_role).toBe('internal_user');
  });

  test('the first matching entry in settings order wins', async () => {
    const dir = directory();
    await authFor(idp, sync, dir).authenticate(
      request(await token(['viewer-1', 'ADMIN_X']), '/key/generate'),
    );
    expect(dir.users.get('alice')?.user_role).toBe('proxy_admin');
  });

  test('roles_jwt_field is used when user_roles_jwt_field is not set', async () => {
    const dir = directory();
    const { user_roles_jwt_field: _, ...settings } = sync;
    await authFor(idp, { ...settings, roles_jwt_field: 'roles' }, dir).authenticate(
      request(await idp.sign({ sub: 'alice', roles: ['ADMIN_1'] }), '/key/generate'),
    );
    expect(dir.users.get('alice')?.user_role).toBe('proxy_admin');
  });
});

describe('teams', () => {
  test('the user joins the token teams that exist and leaves the teams the token no longer names', async () => {
    const dir = directory();
    await authFor(idp, sync, dir).authenticate(
      request(await token([], ['team-a', 'team-b', 'ghost']), '/v1/models'),
    );
    expect(dir.getUserTeamIds('alice').sort()).toEqual(['team-a', 'team-b']);
  });

  test('a team dropped from the token is left on the next request', async () => {
    const dir = directory();
    const auth = authFor(idp, sync, dir);
    await auth.authenticate(request(await token([], ['team-a', 'team-b']), '/v1/models'));
    await auth.authenticate(request(await token([], ['team-b']), '/v1/models'));
    expect(dir.getUserTeamIds('alice')).toEqual(['team-b']);
  });
});

describe('users not in the store', () => {
  test('are left alone without user_id_upsert', async () => {
    const dir = directory();
    await authFor(idp, sync, dir).authenticate(
      request(await idp.sign({ sub: 'bob', realm_access: { roles: [] }, groups: ['team-a'] }), '/v1/models'),
    );
    expect([dir.users.has('bob'), dir.getUserTeamIds('bob')]).toEqual([false, []]);
  });

  test('are created with the mapped role with user_id_upsert', async () => {
    const dir = directory();
    await authFor(idp, { ...sync, user_id_upsert: true }, dir).authenticate(
      request(
        await idp.sign({ sub: 'bob', realm_access: { roles: ['ADMIN_1'] }, groups: ['team-a'] }),
        '/key/generate',
      ),
    );
    expect([dir.users.get('bob')?.user_role, dir.getUserTeamIds('bob')]).toEqual(['proxy_admin', ['team-a']]);
  });
});

test('without sync_user_role_and_teams nothing is written', async () => {
  const dir = directory();
  await authFor(idp, { ...sync, sync_user_role_and_teams: false }, dir).authenticate(
    request(await token(['ADMIN_EU'], ['team-a']), '/v1/models'),
  );
  expect([dir.users.get('alice')?.user_role, dir.getUserTeamIds('alice')]).toEqual([
    'internal_user',
    ['team-c'],
  ]);
});
