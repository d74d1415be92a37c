// RBAC (spec 5.4: enforce_rbac, role_mappings, role_permissions) and scope-based model access (5.5).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryJwtDirectory } from '../../src/jwt/index.js';
import { authFor, request } from '../support/jwt/auth.js';
import { startIdp, type TestIdp } from '../support/jwt/idp.js';
import { expectRefused } from './helpers/refusal.js';

let idp: TestIdp;
beforeAll(async () => {
  idp = await startIdp();
});
afterAll(() => idp.close());

// the spec's example: an Entra app role mapped to a team, objects identified by `oid`
const rbac = {
  enforce_rbac: true,
  object_id_jwt_field: 'oid',
  roles_jwt_field: 'roles',
  role_mappings: [
    { role: 'gateway.consumer', internal_role: 'team' as const },
    { role: 'gateway.user', internal_role: 'internal_user' as const },
    { role: 'gateway.admin', internal_role: 'proxy_admin' as const },
  ],
  role_permissions: [{ role: 'team' as const, models: ['claude-sonnet'], routes: ['/v1/chat/completions'] }],
};

describe('enforce_rbac with role_mappings', () => {
  test('a role mapped to team makes the object id a team that need not exist', async () => {
    const ctx = await authFor(idp, rbac).authenticate(
      request(await idp.sign({ oid: 'obj-1', roles: ['gateway.consumer'] }), '/v1/chat/completions', {
        model: 'claude-sonnet',
      }),
    );
    expect(ctx).toMatchObject({
      kind: 'team',
      team_id: 'obj-1',
      internal_role: 'team',
      allowed_models: ['claude-sonnet'],
    });
  });

  test('a role mapped to internal_user makes the object id a user', async () => {
    const ctx = await authFor(idp, rbac).authenticate(
      request(await idp.sign({ oid: 'obj-2', roles: ['gateway.user'] }), '/v1/embeddings'),
    );
    expect(ctx).toMatchObject({ kind: 'internal_user', user_id: 'obj-2', internal_role: 'internal_user' });
  });

  test('a role mapped to proxy_admin makes the token admin', async () => {
    const ctx = await authFor(idp, rbac).authenticate(
      request(await idp.sign({ oid: 'obj-3', roles: ['gateway.admin'] }), '/key/generate'),
    );
    expect(ctx.kind).toBe('admin');
  });

  test('roles given as a space-separated string are split', async () => {
    const ctx = await authFor(idp, rbac).authenticate(
      request(await idp.sign({ oid: 'o', roles: 'other gateway.admin' }), '/key/generate'),
    );
    expect(ctx.kind).toBe('admin');
  });

  test('roles given as one string where a list was expected do not crash', async () => {
    const ctx = await authFor(idp, rbac).authenticate(
      request(await idp.sign({ oid: 'o', roles: 'gateway.user' }), '/v1/embeddings'),
    );
    expect(ctx.kind).toBe('internal_user');
  });

  test('roles read with dot notation (Keycloak client roles)', async () => {
    const auth = authFor(idp, { ...rbac, roles_jwt_field: 'resource_access.gateway.roles' });
    const ctx = await auth.authenticate(
      request(
        await idp.sign({ oid: 'o', resource_access: { gateway: { roles: ['gateway.user'] } } }),
        '/v1/embeddings',
      ),
    );
    expect(ctx.kind).toBe('internal_user');
  });

  test('the first mapping in settings order wins when the token holds several mapped roles', async () => {
    const ctx = await authFor(idp, rbac).authenticate(
      request(
        await idp.sign({ oid: 'o', roles: ['gateway.admin', 'gateway.consumer'] }),
        '/v1/chat/completions',
        { model: 'claude-sonnet' },
      ),
    );
    expect(ctx.kind).toBe('team');
  });

  test('an existing team named by the team role is used with its record (a blocked one is refused)', async () => {
    const dir = new MemoryJwtDirectory({ teams: [{ team_id: 'obj-1', blocked: true }] });
    await expectRefused(
      authFor(idp, rbac, dir).authenticate(
        request(await idp.sign({ oid: 'obj-1', roles: ['gateway.consumer'] }), '/v1/chat/completions'),
      ),
      403,
      'team_blocked',
    );
  });

  test('x-svc-team-id still has to be one of the token teams', async () => {
    await expectRefused(
      authFor(idp, rbac).authenticate(
        request(await idp.sign({ oid: 'obj-1', roles: ['gateway.consumer'] }), '/v1/chat/completions', {
          headers: { 'x-svc-team-id': 'someone-else' },
        }),
      ),
      403,
      'team_not_in_token',
    );
  });

  test('a token whose roles map to nothing and that names no team or user is 403', async () => {
    const err = await expectRefused(
      authFor(idp, rbac).authenticate(
        request(await idp.sign({ roles: ['unrelated'] }), '/v1/chat/completions'),
      ),
      403,
      'role_not_mapped',
    );
    expect(err.message).toMatch(/enforce_rbac/);
  });

  test('a token whose roles map to nothing is 403 even when it carries an object id', async () => {
    const err = await expectRefused(
      authFor(idp, rbac).authenticate(
        request(await idp.sign({ oid: 'obj-9', roles: ['unrelated'] }), '/v1/chat/completions', {
          model: 'claude-sonnet',
        }),
      ),
      403,
      'role_not_mapped',
    );
    expect(err.message).toBe(
      "None of the token's roles (`unrelated`) is in role_mappings; enforce_rbac admits only mapped roles",
    );
  });

  test('a token without roles is 403 even when it carries a user id and a team id', async () => {
    const dir = new MemoryJwtDirectory({ teams: [{ team_id: 'team-1' }] });
    const auth = authFor(idp, { ...rbac, user_id_jwt_field: 'sub', team_id_jwt_field: 'client_id' }, dir);
    const err = await expectRefused(
      auth.authenticate(request(await idp.sign({ sub: 'alice', client_id: 'team-1' }), '/v1/embeddings')),
      403,
      'role_not_mapped',
    );
    expect(err.message).toBe('The token holds no role; enforce_rbac admits only mapped roles');
  });

  test('a token whose roles map to nothing passes as admin by the admin scope', async () => {
    const ctx = await authFor(idp, rbac).authenticate(
      request(await idp.sign({ oid: 'o', roles: ['unrelated'], scope: 'svc_proxy_admin' }), '/key/generate'),
    );
    expect(ctx.kind).toBe('admin');
  });

  test('a refused token creates no user, even with user_id_upsert', async () => {
    const dir = new MemoryJwtDirectory();
    const auth = authFor(idp, { ...rbac, user_id_upsert: true }, dir);
    await expectRefused(
      auth.authenticate(request(await idp.sign({ oid: 'obj-9', roles: ['unrelated'] }), '/v1/embeddings')),
      403,
      'role_not_mapped',
    );
    expect(await dir.getUser('obj-9')).toBeUndefined();
  });

  test('an end user alone is not enough with enforce_rbac (only team, user or admin)', async () => {
    const auth = authFor(idp, { ...rbac, end_user_id_jwt_field: 'customer' });
    await expectRefused(
      auth.authenticate(request(await idp.sign({ customer: 'c-1' }), '/v1/chat/completions')),
      403,
      'role_not_mapped',
    );
  });

  test('without enforce_rbac the role mappings are ignored', async () => {
    const auth = authFor(idp, { ...rbac, enforce_rbac: false });
    const ctx = await auth.authenticate(
      request(await idp.sign({ oid: 'obj-1', roles: ['gateway.consumer'] }), '/v1/embeddings'),
    );
    expect(ctx).toMatchObject({ kind: 'internal_user', user_id: 'obj-1' });
    expect(ctx.internal_role).toBeUndefined();
  });
});

describe('role_permissions', () => {
  test("the role's routes replace the default routes", async () => {
    const auth = authFor(idp, rbac);
    const token = await idp.sign({ oid: 'obj-1', roles: ['gateway.consumer'] });
    const err = await expectRefused(
      auth.authenticate(request(token, '/v1/embeddings')),
      403,
      'route_not_allowed',
    );
    expect(err.message).toBe('Route `/v1/embeddings` is not allowed for a team token');
  });

  test("a model outside the role's models is 403 naming the role", async () => {
    const err = await expectRefused(
      authFor(idp, rbac).authenticate(
        request(await idp.sign({ oid: 'obj-1', roles: ['gateway.consumer'] }), '/v1/chat/completions', {
          model: 'gpt-4o',
        }),
      ),
      403,
      'model_not_allowed',
    );
    expect(err.message).toBe('Role `team` may not call model `gpt-4o`');
  });

  test('a role without permissions keeps the default routes and every model', async () => {
    const ctx = await authFor(idp, rbac).authenticate(
      request(await idp.sign({ oid: 'u', roles: ['gateway.user'] }), '/v1/embeddings', { model: 'anything' }),
    );
    expect(ctx.allowed_models).toBeUndefined();
  });
});

describe('enforce_scope_based_access with scope_mappings (spec 5.5)', () => {
  const scopes = {
    enforce_scope_based_access: true,
    team_id_upsert: true,
    scope_mappings: [
      { scope: 'models.claude', models: ['claude-sonnet'] },
      { scope: 'models.gpt', models: ['gpt-4o', 'gpt-4o-mini'] },
    ],
  };

  test('the union of the mapped models may be called', async () => {
    const auth = authFor(idp, scopes);
    const token = await idp.sign({ client_id: 'app', scope: 'models.claude models.gpt' });
    const ctx = await auth.authenticate(request(token, '/v1/chat/completions', { model: 'gpt-4o-mini' }));
    expect(ctx.allowed_models).toEqual(['claude-sonnet', 'gpt-4o', 'gpt-4o-mini']);
  });

  test('a model no held scope grants is 403', async () => {
    const err = await expectRefused(
      authFor(idp, scopes).authenticate(
        request(await idp.sign({ client_id: 'app', scope: ['models.claude'] }), '/v1/chat/completions', {
          model: 'gpt-4o',
        }),
      ),
      403,
      'model_not_allowed',
    );
    expect(err.message).toBe("The token's scopes do not grant model `gpt-4o`");
  });

  test('a token holding no mapped scope may call no model', async () => {
    await expectRefused(
      authFor(idp, scopes).authenticate(
        request(await idp.sign({ client_id: 'app', scope: 'openid' }), '/v1/chat/completions', {
          model: 'claude-sonnet',
        }),
      ),
      403,
      'model_not_allowed',
    );
  });

  test('Okta-style scp lists count as scopes', async () => {
    const ctx = await authFor(idp, scopes).authenticate(
      request(await idp.sign({ client_id: 'app', scp: ['models.claude'] }), '/v1/chat/completions', {
        model: 'claude-sonnet',
      }),
    );
    expect(ctx.kind).toBe('team');
  });

  test('scopes and a team both restrict: only what both allow', async () => {
    const dir = new MemoryJwtDirectory({ teams: [{ team_id: 'app', models: ['gpt-4o'] }] });
    const ctx = await authFor(idp, scopes, dir).authenticate(
      request(await idp.sign({ client_id: 'app', scope: 'models.gpt models.claude' }), '/v1/models', {
        method: 'GET',
      }),
    );
    expect(ctx.allowed_models).toEqual(['gpt-4o']);
  });

  test('without enforce_scope_based_access scopes restrict nothing', async () => {
    const ctx = await authFor(idp, { ...scopes, enforce_scope_based_access: false }).authenticate(
      request(await idp.sign({ client_id: 'app', scope: 'openid' }), '/v1/chat/completions', {
        model: 'anything',
      }),
    );
    expect(ctx.allowed_models).toBeUndefined();
  });
});
