// What a caller may reach (CONTRACT 6.3, 6.4; issue 22 items 1, 7, 12): every model a call may reach
// (request fallbacks, configured and context-window fallbacks) must be allowed by the key, its team or
// the token, or that route is skipped; /v1/models and /model_group/info list only what the caller may
// call; with enforce_rbac a token whose roles map to nothing is refused whatever ids it carries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdp, type TestIdp } from '../../test/support/jwt/idp.js';
import { ENGINES, eventually, mockDeployment, startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';

const USER = [{ role: 'user', content: 'hi' }];

describe.each(ENGINES)('what a caller may reach (%s)', (engine) => {
  let t: TestProxy;
  let idp: TestIdp;
  beforeAll(async () => {
    idp = await startIdp();
    t = await startTestProxy(engine, {
      models: (mock) => [
        mockDeployment(mock, 'cheap', 'm'),
        mockDeployment(mock, 'backup', 'backup'),
        mockDeployment(mock, 'flaky', 'flaky'),
        mockDeployment(mock, 'short', 'short'),
        // $20 a call at the mock's usage: what the key's budget could not afford
        mockDeployment(mock, 'prem', 'premium', { input_cost_per_token: 1, output_cost_per_token: 1 }),
      ],
      router_settings: {
        num_retries: 0,
        fallbacks: [{ flaky: ['premium', 'backup'] }],
        context_window_fallbacks: [{ short: ['premium'] }],
      },
      environment_variables: { JWT_PUBLIC_KEY_URL: idp.jwksUri },
      general_settings: {
        enable_jwt_auth: true,
        svc_jwtauth: {
          enforce_rbac: true,
          object_id_jwt_field: 'oid',
          roles_jwt_field: 'roles',
          role_mappings: [
            { role: 'gw.team', internal_role: 'team' },
            { role: 'gw.user', internal_role: 'internal_user' },
          ],
        },
      },
    });
    t.mock.setBehavior('/flaky', { status: 500 });
    t.mock.setBehavior('/short', { status: 400, error: { code: 'context_length_exceeded' } });
    await post('/team/new', { team_id: 'narrow', models: ['m', 'backup'] });
    await post('/team/new', { team_id: 'jwt-team', models: ['m'] });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  const { post, get, newKey } = client(() => t);
  const premiumCalls = () => t.mock.requests.filter((r) => r.path.startsWith('/prem/')).length;
  const groupsOf = (body: { data: Array<{ id?: string; model_group?: string }> }) =>
    body.data.map((m) => m.id ?? m.model_group).sort();
  const rowsOf = async (keyHash: string, count: number) => {
    let rows: Array<{ model_group: string; status: string; cost: number }> = [];
    await eventually(async () => {
      rows = (await get(`/spend/logs?key=${keyHash}`)).body;
      if (rows.length < count) throw new Error(`${rows.length} of ${count} spend rows`);
    });
    return rows;
  };
  const teamToken = () => idp.sign({ oid: 'jwt-team', roles: ['gw.team'] });

  /**
   * Asks for `m` as if it failed (`mock_testing_fallbacks`), with `premium` then `also` as the
   * request's fallbacks; says whether `premium` was called.
   */
  const viaFallbacks = async (
    headers: Record<string, string>,
    {
      path = '/v1/chat/completions',
      body = { messages: USER } as Record<string, unknown>,
      also = [] as string[],
    } = {},
  ) => {
    const before = premiumCalls();
    const fallbacks = ['premium', ...also];
    const res = await post(path, { model: 'm', ...body, fallbacks, mock_testing_fallbacks: true }, headers);
    return { status: res.status, body: res.body, premiumCalled: premiumCalls() > before };
  };

  describe("a request's fallbacks", () => {
    it('cannot reach a model outside the key: the route is skipped, premium is neither called nor charged', async () => {
      const { headers, keyHash } = await newKey({ models: ['m'], max_budget: 0.5 });
      const asked = await post('/v1/chat/completions', { model: 'premium', messages: USER }, headers);
      expect(asked.status).toBe(403);
      const res = await viaFallbacks(headers);
      expect([res.status, res.premiumCalled]).toEqual([500, false]);
      expect(res.body.error.message).toContain('mock_testing_fallbacks is set: m answered as if it failed');
      const rows = await rowsOf(keyHash, 1);
      expect(rows.map((r) => [r.model_group, r.status, r.cost])).toEqual([['m', 'failure', 0]]);
    });

    it('reach the allowed fallback after skipping the disallowed one', async () => {
      const { headers, keyHash } = await newKey({ models: ['m', 'backup'] });
      const res = await viaFallbacks(headers, { also: ['backup'] });
      expect([res.status, res.premiumCalled]).toEqual([200, false]);
      expect((await rowsOf(keyHash, 1)).map((r) => r.model_group)).toEqual(['backup']);
    });

    it("cannot reach a model outside the key's team", async () => {
      const { headers } = await newKey({ team_id: 'narrow' });
      const res = await viaFallbacks(headers);
      expect([res.status, res.premiumCalled]).toEqual([500, false]);
    });

    it("cannot reach a model outside a JWT team's models", async () => {
      const res = await viaFallbacks({ authorization: `Bearer ${await teamToken()}` });
      expect([res.status, res.premiumCalled]).toEqual([500, false]);
    });

    it('cannot reach a disallowed model through /v1/messages either', async () => {
      const { headers } = await newKey({ models: ['m'] });
      const res = await viaFallbacks(headers, {
        path: '/v1/messages',
        body: { max_tokens: 16, messages: USER },
      });
      expect([res.status, res.premiumCalled]).toEqual([500, false]);
    });

    it('cannot reach a disallowed model through embeddings either', async () => {
      const { headers } = await newKey({ models: ['m'] });
      const res = await viaFallbacks(headers, { path: '/v1/embeddings', body: { input: 'hi' } });
      expect([res.status, res.premiumCalled]).toEqual([500, false]);
    });
  });

  describe('configured fallbacks', () => {
    it('skip a disallowed fallback and serve from the allowed one', async () => {
      const { headers, keyHash } = await newKey({ models: ['flaky', 'backup'] });
      const before = premiumCalls();
      const res = await post('/v1/chat/completions', { model: 'flaky', messages: USER }, headers);
      expect(res.status).toBe(200);
      expect(premiumCalls()).toBe(before);
      expect((await rowsOf(keyHash, 1)).map((r) => r.model_group)).toEqual(['backup']);
    });

    it('still serve from every fallback for a key without a model list', async () => {
      const { headers, keyHash } = await newKey();
      const res = await post('/v1/chat/completions', { model: 'flaky', messages: USER }, headers);
      expect(res.status).toBe(200);
      expect((await rowsOf(keyHash, 1)).map((r) => r.model_group)).toEqual(['premium']);
    });

    it('skip a disallowed context-window fallback: the caller gets the context-window error', async () => {
      const { headers } = await newKey({ models: ['short'] });
      const before = premiumCalls();
      const res = await post('/v1/chat/completions', { model: 'short', messages: USER }, headers);
      expect([res.status, res.body.error.code]).toEqual([400, 'context_window_exceeded']);
      expect(premiumCalls()).toBe(before);
    });
  });

  describe('/v1/models and /model_group/info', () => {
    it("list only a key's models", async () => {
      const { headers } = await newKey({ models: ['m', 'backup'] });
      expect(groupsOf((await get('/v1/models', headers)).body)).toEqual(['backup', 'm']);
      expect(groupsOf((await get('/model_group/info', headers)).body)).toEqual(['backup', 'm']);
    });

    it("list only the models of a key's team", async () => {
      const { headers } = await newKey({ team_id: 'narrow' });
      expect(groupsOf((await get('/v1/models', headers)).body)).toEqual(['backup', 'm']);
      expect(groupsOf((await get('/model_group/info', headers)).body)).toEqual(['backup', 'm']);
    });

    it("list only a JWT team's models", async () => {
      const headers = { authorization: `Bearer ${await teamToken()}` };
      expect(groupsOf((await get('/v1/models', headers)).body)).toEqual(['m']);
      expect(groupsOf((await get('/model_group/info', headers)).body)).toEqual(['m']);
    });

    it('list every group for the master key', async () => {
      expect(groupsOf((await get('/v1/models')).body)).toEqual(['backup', 'flaky', 'm', 'premium', 'short']);
    });
  });

  describe('enforce_rbac', () => {
    const chatWithRoles = async (roles: string[]) => {
      const token = await idp.sign({ oid: 'someone', roles });
      return post(
        '/v1/chat/completions',
        { model: 'm', messages: USER },
        { authorization: `Bearer ${token}` },
      );
    };

    it('refuses a token whose roles map to nothing although it carries an object id (403 role_not_mapped)', async () => {
      const res = await chatWithRoles(['gw.guest']);
      expect([res.status, res.body.error.code]).toEqual([403, 'role_not_mapped']);
    });

    it('admits the same object id with a mapped role', async () => {
      expect((await chatWithRoles(['gw.user'])).status).toBe(200);
    });
  });
});
