// JWT auth through the proxy (spec 5, CONTRACT 5.6): tokens of a real OpenID provider (oidc-provider)
// as team, admin and mapped callers, next to virtual keys; spend charged to whom the token names.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryJwtDirectory } from '../../../src/jwt/index.js';
import { startIdp, type TestIdp } from '../../jwt/helpers/idp.js';
import { mockDeployment, startTestProxy, type TestProxy } from '../harness.js';
import { bearer, chat, newestRow, send } from './jwt-helpers.js';

let idp: TestIdp;
let t: TestProxy;
const directory = new MemoryJwtDirectory({
  teams: [
    { team_id: 'team-a', models: ['gpt-4o'], organization_id: 'org-1' },
    { team_id: 'team-b', models: ['gpt-4o'], blocked: true },
  ],
});

beforeAll(async () => {
  idp = await startIdp();
  t = await startTestProxy('pglite', {
    models: (mock) => [mockDeployment(mock, 'east'), mockDeployment(mock, 'west', 'other-model')],
    // the key set comes from the config's environment_variables (spec 5.1)
    environment_variables: { JWT_PUBLIC_KEY_URL: idp.jwksUri },
    general_settings: {
      enable_jwt_auth: true,
      svc_jwtauth: {
        team_id_jwt_field: 'client_id',
        team_allowed_routes: ['openai_routes', 'anthropic_routes', 'info_routes'],
        user_id_jwt_field: 'sub',
        org_id_jwt_field: 'org',
        end_user_id_jwt_field: 'customer',
        virtual_key_claim_field: 'email',
      },
    },
    jwtDirectory: () => directory,
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

// a team token names its team only; with a user id too, a team without the model leaves a user caller
const teamToken = (claims: Record<string, unknown> = {}) =>
  idp.sign({ client_id: 'team-a', org: 'org-1', ...claims });
const adminToken = () => idp.sign({ sub: 'root', scope: 'openid svc_proxy_admin' });

describe('team tokens', () => {
  test("call a model of the token's team", async () => {
    const { status, body } = await chat(t, bearer(await teamToken()));
    expect([status, body.object]).toEqual([200, 'chat.completion']);
  });

  test('are refused a model their team lacks with 403 model_not_allowed', async () => {
    const { status, body } = await chat(t, bearer(await teamToken()), 'other-model');
    expect([status, (body.error as { code: string }).code]).toEqual([403, 'model_not_allowed']);
  });

  test('are refused an admin route with 403 route_not_allowed', async () => {
    const { status, body } = await send(t, 'POST', '/key/generate', bearer(await teamToken()), {});
    expect([status, (body.error as { code: string }).code]).toEqual([403, 'route_not_allowed']);
  });

  test('of a blocked team are refused with 403 team_blocked', async () => {
    const { status, body } = await chat(t, bearer(await teamToken({ client_id: 'team-b' })));
    expect([status, (body.error as { code: string }).code]).toEqual([403, 'team_blocked']);
  });

  test("see only their team's models in /v1/models", async () => {
    const { status, body } = await send(t, 'GET', '/v1/models', bearer(await teamToken()));
    expect([status, (body.data as { id: string }[]).map((m) => m.id)]).toEqual([200, ['gpt-4o']]);
  });

  test("are accepted in x-api-key (the Anthropic SDK's header) on /v1/messages", async () => {
    const { status } = await send(
      t,
      'POST',
      '/v1/messages',
      { 'x-api-key': await teamToken() },
      { model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
    );
    expect(status).toBe(200);
  });

  test("charge the call to the token's user, team, organization and end user", async () => {
    const token = await teamToken({ sub: 'spend-user', customer: 'cust-9' });
    expect((await chat(t, bearer(token))).status).toBe(200);
    const row = await newestRow(t, '?user_id=spend-user', 1);
    expect(row).toMatchObject({
      key_hash: null,
      user_id: 'spend-user',
      team_id: 'team-a',
      organization_id: 'org-1',
      end_user: 'cust-9',
    });
    expect(row.cost).toBeGreaterThan(0);
  });
});

describe('refused tokens', () => {
  test('an expired token is 401 token_expired', async () => {
    const token = await idp.sign({ client_id: 'team-a', exp: Math.floor(Date.now() / 1000) - 60 });
    const { status, body } = await chat(t, bearer(token));
    expect([status, (body.error as { code: string }).code]).toEqual([401, 'token_expired']);
  });

  test('a token with a forged signature is 401', async () => {
    const [head, payload] = (await teamToken()).split('.');
    const forged = `${head}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    expect((await chat(t, bearer(forged))).status).toBe(401);
  });
});

describe('admin tokens', () => {
  test('POST /key/generate, and the key they make calls models', async () => {
    const made = await send(t, 'POST', '/key/generate', bearer(await adminToken()), { models: ['gpt-4o'] });
    expect(made.status).toBe(200);
    expect((await chat(t, bearer(made.body.key as string))).status).toBe(200);
  });

  test('are refused model calls (admin routes exclude openai_routes by default)', async () => {
    expect((await chat(t, bearer(await adminToken()))).status).toBe(403);
  });
});

describe('bearer values that are not JWTs', () => {
  test('are virtual keys as before', async () => {
    const made = await send(t, 'POST', '/key/generate', t.admin, {});
    const { status } = await chat(t, bearer(made.body.key as string));
    expect(status).toBe(200);
  });

  test('an unknown one is 401 invalid_api_key, not a JWT error', async () => {
    const { status, body } = await chat(t, bearer('sk-svc-nobody-issued-this'));
    expect([status, (body.error as { code: string }).code]).toEqual([401, 'invalid_api_key']);
  });
});

describe('a token mapped to a virtual key', () => {
  test("spends on the key: /key/info's spend grows and the spend row names the key", async () => {
    const made = await send(t, 'POST', '/key/generate', t.admin, { key_alias: 'mapped' });
    const key = made.body.key as string;
    directory.keyMappings.set('m1', {
      id: 'm1',
      jwt_claim_name: 'email',
      jwt_claim_value: 'mapped@acme.com',
      key,
      is_active: true,
    });
    const token = await idp.sign({ email: 'mapped@acme.com', client_id: 'team-a', sub: 'mapped-user' });
    expect((await chat(t, bearer(token))).status).toBe(200);
    const row = await newestRow(t, `?key=${key}`, 1);
    expect(row.key_hash).toBe(made.body.key_hash);
    const info = await send(t, 'GET', `/key/info?key=${key}`, t.admin);
    expect((info.body.info as { spend: number }).spend).toBeCloseTo(row.cost, 12);
  });

  test("gets the key's model list: a model outside it is 403", async () => {
    const made = await send(t, 'POST', '/key/generate', t.admin, { models: ['other-model'] });
    directory.keyMappings.set('m2', {
      id: 'm2',
      jwt_claim_name: 'email',
      jwt_claim_value: 'limited@acme.com',
      key: made.body.key as string,
      is_active: true,
    });
    const token = await idp.sign({ email: 'limited@acme.com' });
    const { status, body } = await chat(t, bearer(token), 'gpt-4o');
    expect([status, (body.error as { code: string }).code]).toEqual([403, 'model_not_allowed']);
  });

  test("gets the key's budget: a spent key is refused", async () => {
    const made = await send(t, 'POST', '/key/generate', t.admin, { max_budget: 0 });
    directory.keyMappings.set('m3', {
      id: 'm3',
      jwt_claim_name: 'email',
      jwt_claim_value: 'broke@acme.com',
      key: made.body.key as string,
      is_active: true,
    });
    const { status, body } = await chat(t, bearer(await idp.sign({ email: 'broke@acme.com' })));
    expect([status, (body.error as { code: string }).code]).toEqual([400, 'budget_exceeded']);
  });
});
