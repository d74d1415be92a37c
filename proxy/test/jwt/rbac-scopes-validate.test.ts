// Role-based access, scope-based model access, the audience and custom_validate through the proxy
// (spec 5.4, 5.5, 5.3.9; CONTRACT 5.6). JWT_PUBLIC_KEY_URL and JWT_AUDIENCE come from the environment;
// custom_validate is a module next to the config file.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RESOURCE, startIdp, type TestIdp } from '../../../test/support/jwt/idp.js';
import { mockDeployment, startTestProxy, type TestProxy } from '../harness.js';
import { answerBeforeBody } from '../http/answer-before-body.js';
import { bearer, chat, send } from './jwt-helpers.js';

let idp: TestIdp;
let t: TestProxy;

beforeAll(async () => {
  idp = await startIdp();
  t = await startTestProxy('pglite', {
    models: (mock) => [mockDeployment(mock, 'east'), mockDeployment(mock, 'west', 'other-model')],
    env: { JWT_PUBLIC_KEY_URL: idp.discoveryUrl, JWT_AUDIENCE: RESOURCE },
    files: {
      'tenant-checks.mjs':
        // counts its calls where the test can read them (the proxy runs in this process)
        'export function onlyAcme(payload) {\n' +
        '  globalThis.svcCustomValidateCalls = (globalThis.svcCustomValidateCalls ?? 0) + 1;\n' +
        '  return payload.tenant === "acme";\n}\n',
    },
    general_settings: {
      enable_jwt_auth: true,
      svc_jwtauth: {
        user_id_jwt_field: 'sub',
        roles_jwt_field: 'roles',
        enforce_rbac: true,
        role_mappings: [
          { role: 'gw.user', internal_role: 'internal_user' },
          { role: 'gw.admin', internal_role: 'proxy_admin' },
        ],
        role_permissions: [
          { role: 'internal_user', models: ['gpt-4o', 'other-model'], routes: ['openai_routes'] },
        ],
        enforce_scope_based_access: true,
        scope_mappings: [
          { scope: 'models.read', models: ['gpt-4o'] },
          { scope: 'models.other', models: ['other-model'] },
        ],
        custom_validate: 'tenant-checks.onlyAcme',
      },
    },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

const token = (claims: Record<string, unknown> = {}) =>
  idp.sign({
    sub: 'bob',
    aud: RESOURCE,
    tenant: 'acme',
    roles: ['gw.user'],
    scope: 'models.read',
    ...claims,
  });
const code = (body: Record<string, unknown>) => (body.error as { code?: string }).code;

describe('RBAC (enforce_rbac)', () => {
  test('a mapped user role calls a model its role and scopes allow', async () => {
    expect((await chat(t, bearer(await token()))).status).toBe(200);
  });

  test("a route outside its role's routes is 403 route_not_allowed", async () => {
    const { status, body } = await send(t, 'GET', '/model_group/info', bearer(await token()));
    expect([status, code(body)]).toEqual([403, 'route_not_allowed']);
  });

  test('a token naming no user whose roles map to nothing is 403 role_not_mapped', async () => {
    const { status, body } = await chat(t, bearer(await token({ sub: undefined, roles: ['gw.guest'] })));
    expect([status, code(body)]).toEqual([403, 'role_not_mapped']);
  });

  test('a role mapped to proxy_admin may POST /key/generate', async () => {
    const { status } = await send(
      t,
      'POST',
      '/key/generate',
      bearer(await token({ roles: ['gw.admin'] })),
      {},
    );
    expect(status).toBe(200);
  });

  test('a user role may not POST /key/generate', async () => {
    const { status, body } = await send(t, 'POST', '/key/generate', bearer(await token()), {});
    expect([status, code(body)]).toEqual([403, 'route_not_allowed']);
  });
});

describe('scopes (enforce_scope_based_access)', () => {
  test("a model the token's scopes do not grant is 403 model_not_allowed", async () => {
    const { status, body } = await chat(t, bearer(await token()), 'other-model');
    expect([status, code(body)]).toEqual([403, 'model_not_allowed']);
  });

  test('another scope grants that model', async () => {
    const scoped = await token({ scope: 'models.read models.other' });
    expect((await chat(t, bearer(scoped), 'other-model')).status).toBe(200);
  });

  test('/v1/models lists the models the scopes grant', async () => {
    const { body } = await send(t, 'GET', '/v1/models', bearer(await token()));
    expect((body.data as { id: string }[]).map((m) => m.id)).toEqual(['gpt-4o']);
  });
});

describe('JWT_AUDIENCE', () => {
  test('a token for another audience is 401 audience_not_allowed', async () => {
    const { status, body } = await chat(t, bearer(await token({ aud: 'https://elsewhere.test' })));
    expect([status, code(body)]).toEqual([401, 'audience_not_allowed']);
  });
});

describe('custom_validate', () => {
  const calls = () => (globalThis as { svcCustomValidateCalls?: number }).svcCustomValidateCalls ?? 0;

  test('runs once for a call with a body (before the body; the route decides the rest)', async () => {
    const before = calls();
    expect((await chat(t, bearer(await token()))).status).toBe(200);
    expect(calls() - before).toBe(1);
  });

  test('refuses a token it fails before reading the body', async () => {
    const refused = bearer(await token({ tenant: 'globex' }));
    expect(await answerBeforeBody(t.url, '/v1/chat/completions', refused, 5_000_000)).toBe(
      'HTTP/1.1 401 Unauthorized',
    );
  });

  test('false gives 401 with exactly {"error": "Invalid JWT token"}', async () => {
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...bearer(await token({ tenant: 'globex' })), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect([res.status, await res.text()]).toEqual([401, '{"error":"Invalid JWT token"}']);
  });

  test('the same body on /v1/messages, whose other errors are Anthropic-shaped', async () => {
    const { status, body } = await send(
      t,
      'POST',
      '/v1/messages',
      { 'x-api-key': await token({ tenant: 'globex' }) },
      { model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
    );
    expect([status, body]).toEqual([401, { error: 'Invalid JWT token' }]);
  });
});
