// JWT auth through the proxy (spec 5, CONTRACT 5.6): tokens of a real OpenID provider (oidc-provider)
// as team, admin and mapped callers, next to virtual keys; spend charged to whom the token names. Teams,
// users, organizations and mappings are the proxy database's, made through its management routes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startIdp, type TestIdp } from '../../../test/support/jwt/idp.js';
import { eventually, mockDeployment, startTestProxy, type TestProxy } from '../harness.js';
import { bearer, chat, newestRow, send } from './jwt-helpers.js';

let idp: TestIdp;
let t: TestProxy;

async function made(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await send(t, 'POST', path, t.admin, body);
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A new virtual key mapped to tokens whose `email` is `email`. */
async function mappedKey(email: string, key: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const generated = await made('/key/generate', key);
  await made('/jwt/key/mapping/new', { jwt_claim_name: 'email', jwt_claim_value: email, key: generated.key });
  return generated;
}

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
  });
  await made('/organization/new', { organization_id: 'org-1', organization_alias: 'acme' });
  await made('/team/new', { team_id: 'team-a', models: ['gpt-4o'], organization_id: 'org-1' });
  await made('/team/new', { team_id: 'team-b', models: ['gpt-4o'] });
  await made('/team/block', { team_id: 'team-b' });
  await made('/user/new', { user_id: 'spend-user' });
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

  test("add the call's cost to the spend of that user, team and organization (spec 5.3.4)", async () => {
    const spendOf = async (path: string, field = 'spend') =>
      ((await send(t, 'GET', path, t.admin)).body as Record<string, number>)[field]!;
    const before = await Promise.all([
      spendOf('/user/info?user_id=spend-user'),
      spendOf('/team/info?team_id=team-a'),
      spendOf('/organization/info?organization_id=org-1'),
    ]);
    expect((await chat(t, bearer(await teamToken({ sub: 'spend-user' })))).status).toBe(200);
    const row = await newestRow(t, '?user_id=spend-user', 2);
    await eventually(async () => {
      const after = await Promise.all([
        spendOf('/user/info?user_id=spend-user'),
        spendOf('/team/info?team_id=team-a'),
        spendOf('/organization/info?organization_id=org-1'),
      ]);
      for (const [i, spend] of after.entries()) expect(spend).toBeCloseTo(before[i]! + row.cost, 12);
    });
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

  test('read every route the admin page uses', async () => {
    const token = bearer(await adminToken());
    for (const path of ['/key/list', '/team/list', '/deployment/health', '/spend/report']) {
      expect((await send(t, 'GET', path, token)).status, path).toBe(200);
    }
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
    const generated = await mappedKey('mapped@acme.com', { key_alias: 'mapped' });
    const key = generated.key as string;
    const token = await idp.sign({ email: 'mapped@acme.com', client_id: 'team-a', sub: 'mapped-user' });
    expect((await chat(t, bearer(token))).status).toBe(200);
    const row = await newestRow(t, `?key=${key}`, 1);
    expect(row.key_hash).toBe(generated.key_hash);
    const info = await send(t, 'GET', `/key/info?key=${key}`, t.admin);
    expect((info.body.info as { spend: number }).spend).toBeCloseTo(row.cost, 12);
  });

  test("gets the key's model list: a model outside it is 403", async () => {
    await mappedKey('limited@acme.com', { models: ['other-model'] });
    const token = await idp.sign({ email: 'limited@acme.com' });
    const { status, body } = await chat(t, bearer(token), 'gpt-4o');
    expect([status, (body.error as { code: string }).code]).toEqual([403, 'model_not_allowed']);
  });

  test("gets the key's budget: a spent key is refused", async () => {
    await mappedKey('broke@acme.com', { max_budget: 0 });
    const { status, body } = await chat(t, bearer(await idp.sign({ email: 'broke@acme.com' })));
    expect([status, (body.error as { code: string }).code]).toEqual([400, 'budget_exceeded']);
  });

  test('a mapping made after a miss applies at once (the routes clear the cached miss)', async () => {
    const token = await idp.sign({ email: 'late@acme.com', client_id: 'team-b' });
    expect((await chat(t, bearer(token))).status).toBe(403);
    await mappedKey('late@acme.com');
    expect((await chat(t, bearer(token))).status).toBe(200);
  });
});
