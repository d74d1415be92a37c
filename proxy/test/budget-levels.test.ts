import type { DeploymentConfig } from '@svc/router';
import type { MockProvider } from '@svc/router/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, mockDeployment, startTestProxy, type TestProxy } from './harness.js';
import { type Answer, client } from './management/client.js';

/** A deployment of a model no catalog prices, without prices of its own. */
function unpriced(mock: MockProvider, id: string, group: string): DeploymentConfig {
  const base = mockDeployment(mock, id, group, { model: 'openai/house-model' });
  const { input_cost_per_token: _in, output_cost_per_token: _out, ...params } = base.svc_params;
  return { ...base, svc_params: params as DeploymentConfig['svc_params'] };
}

describe.each(ENGINES)('max_budget at every level (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine, {
      models: (mock) => [mockDeployment(mock, 'east'), unpriced(mock, 'house', 'house')],
    });
    t.mock.setBehavior('/', { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);
  const chat = (headers?: Record<string, string>, extra: Record<string, unknown> = {}, model = 'gpt-4o') =>
    post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }], ...extra }, headers);
  const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

  /** The refusal of a call: status, code and message. */
  const refusal = async (answer: Promise<Answer>) => {
    const { status, body } = await answer;
    return { status, code: body.error?.code, message: body.error?.message as string };
  };

  it('refuses a key over its max_budget, naming it by its alias', async () => {
    const alias = unique('bot');
    const key = await newKey({ key_alias: alias, max_budget: 0 });
    expect(await refusal(chat(key.headers))).toMatchObject({
      status: 400,
      code: 'budget_exceeded',
      message: expect.stringContaining(`key \`${alias}\``),
    });
  });

  it('names a key without an alias by the first 8 characters of its hash', async () => {
    const key = await newKey({ max_budget: 0 });
    expect((await refusal(chat(key.headers))).message).toContain(`key \`${key.keyHash.slice(0, 8)}\``);
  });

  it("refuses a key of a team over the team's max_budget, naming the team", async () => {
    const team = unique('team');
    expect((await post('/team/new', { team_id: team, max_budget: 0 })).status).toBe(200);
    const key = await newKey({ team_id: team });
    expect(await refusal(chat(key.headers))).toMatchObject({
      status: 400,
      code: 'budget_exceeded',
      message: expect.stringContaining(`team \`${team}\``),
    });
  });

  it("refuses a key of a user over the user's max_budget, naming the user", async () => {
    const user = unique('user');
    expect((await post('/user/new', { user_id: user, max_budget: 0 })).status).toBe(200);
    const key = await newKey({ user_id: user });
    expect(await refusal(chat(key.headers))).toMatchObject({
      status: 400,
      code: 'budget_exceeded',
      message: expect.stringContaining(`user \`${user}\``),
    });
  });

  it('refuses a key naming an organization over its max_budget, naming the organization', async () => {
    const org = unique('org');
    expect(
      (await post('/organization/new', { organization_id: org, organization_alias: org, max_budget: 0 }))
        .status,
    ).toBe(200);
    const key = await newKey({ organization_id: org });
    expect(await refusal(chat(key.headers))).toMatchObject({
      status: 400,
      code: 'budget_exceeded',
      message: expect.stringContaining(`organization \`${org}\``),
    });
  });

  it("charges a team's key to the team's organization and refuses it over the organization's budget", async () => {
    const org = unique('org');
    await post('/organization/new', { organization_id: org, organization_alias: org, max_budget: 0.001 });
    const team = unique('team');
    await post('/team/new', { team_id: team, organization_id: org });
    const key = await newKey({ team_id: team });
    expect((await chat(key.headers)).status).toBe(200);
    await eventually(async () => {
      const { body } = await get(`/organization/info?organization_id=${org}`);
      expect(body.spend).toBeGreaterThan(0);
    });
    await post('/organization/new', {
      organization_id: `${org}-0`,
      organization_alias: `${org}-0`,
      max_budget: 0,
    });
    const team0 = unique('team');
    await post('/team/new', { team_id: team0, organization_id: `${org}-0` });
    const refused = await refusal(chat((await newKey({ team_id: team0 })).headers));
    expect(refused).toMatchObject({ status: 400, code: 'budget_exceeded' });
    expect(refused.message).toContain(`organization \`${org}-0\``);
  });

  it('refuses the customer named by `user` over its max_budget, master key included', async () => {
    const customer = unique('cust');
    expect((await post('/customer/new', { user_id: customer, max_budget: 0 })).status).toBe(200);
    expect(await refusal(chat(undefined, { user: customer }))).toMatchObject({
      status: 400,
      code: 'budget_exceeded',
      message: expect.stringContaining(`customer \`${customer}\``),
    });
    expect((await chat(undefined, { user: unique('other') })).status).toBe(200);
  });

  it('serves a call naming an end user longer than any customer id, its row keeping 1024 characters', async () => {
    const key = await newKey();
    const user = `${unique('long')}${'u'.repeat(100_000)}`;

    expect((await chat(key.headers, { user })).status).toBe(200);
    await eventually(async () => {
      const { body } = await get(`/spend/logs?key=${key.keyHash}`);
      expect(body).toEqual([expect.objectContaining({ end_user: user.slice(0, 1024), status: 'success' })]);
    });
  });

  it("charges a customer's calls to the customer's spend", async () => {
    const customer = unique('cust');
    await post('/customer/new', { user_id: customer, max_budget: 10 });
    expect((await chat((await newKey()).headers, { user: customer })).status).toBe(200);
    await eventually(async () => {
      const { body } = await get(`/customer/info?end_user_id=${customer}`);
      expect(body.spend).toBeCloseTo(10 * 0.000001 + 5 * 0.000002, 12);
    });
  });

  it('refuses an unpriced model when only the customer has a budget (model_unpriced)', async () => {
    const customer = unique('cust');
    await post('/customer/new', { user_id: customer, max_budget: 10 });
    expect(await refusal(chat(undefined, { user: customer }, 'house'))).toMatchObject({
      status: 400,
      code: 'model_unpriced',
    });
    expect((await chat(undefined, { user: unique('free') }, 'house')).status).toBe(200);
  });

  it("refuses an unpriced model when only the key's user has a budget", async () => {
    const user = unique('user');
    await post('/user/new', { user_id: user, max_budget: 10 });
    const key = await newKey({ user_id: user });
    expect((await refusal(chat(key.headers, {}, 'house'))).code).toBe('model_unpriced');
  });
});

describe.each(ENGINES)('customers (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine);
    t.mock.setBehavior('/', { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);
  const chat = (user: string, headers?: Record<string, string>) =>
    post(
      '/v1/chat/completions',
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], user },
      headers,
    );

  it('creates a customer and reads it back with its budget and period', async () => {
    const created = await post('/customer/new', { user_id: 'acme-1', max_budget: 5, budget_duration: '1mo' });
    expect(created.status).toBe(200);
    const { status, body } = await get('/customer/info?end_user_id=acme-1');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      user_id: 'acme-1',
      max_budget: 5,
      spend: 0,
      budget_duration: '1mo',
      blocked: false,
    });
    const resetAt = Date.parse(body.budget_reset_at);
    expect(resetAt - Date.now()).toBeGreaterThan(27 * 86_400_000);
    expect(resetAt - Date.now()).toBeLessThanOrEqual(31 * 86_400_000);
  });

  it('answers 409 for a customer that exists, 404 for one that does not', async () => {
    await post('/customer/new', { user_id: 'acme-2' });
    expect((await post('/customer/new', { user_id: 'acme-2' })).status).toBe(409);
    expect((await get('/customer/info?end_user_id=nobody')).status).toBe(404);
  });

  it('refuses a bad budget_duration with 400 naming the field', async () => {
    const { status, body } = await post('/customer/new', { user_id: 'acme-3', budget_duration: 'monthly' });
    expect(status).toBe(400);
    expect(body.error.message).toContain('budget_duration');
  });

  it('blocks a customer (403 customer_blocked, whoever calls) and unblocks it', async () => {
    const key = await newKey();
    expect((await chat('acme-4', key.headers)).status).toBe(200);
    expect((await post('/customer/block', { user_ids: ['acme-4'] })).body).toEqual({
      blocked_user_ids: ['acme-4'],
    });
    const refused = await chat('acme-4', key.headers);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'customer_blocked']);
    expect((await chat('acme-4')).status).toBe(403);
    expect((await get('/customer/info?end_user_id=acme-4')).body.blocked).toBe(true);
    expect((await post('/customer/unblock', { user_ids: ['acme-4'] })).status).toBe(200);
    expect((await chat('acme-4', key.headers)).status).toBe(200);
  });

  it('refuses a blocked customer named with NULs around its id, the id its spend row would charge', async () => {
    const key = await newKey();
    expect((await post('/customer/block', { user_ids: ['acme-nul'] })).status).toBe(200);

    const refused = await chat('\0acme-nul\0', key.headers);

    expect([refused.status, refused.body.error.code]).toEqual([403, 'customer_blocked']);
  });

  it('needs the master key for the customer routes', async () => {
    const key = await newKey();
    expect((await post('/customer/new', { user_id: 'acme-5' }, key.headers)).status).toBe(403);
    expect((await get('/customer/info?end_user_id=acme-1', key.headers)).status).toBe(403);
    expect((await post('/customer/block', { user_ids: ['acme-1'] }, key.headers)).status).toBe(403);
  });

  it('answers 404 when unblocking customers none of whom exists', async () => {
    expect((await post('/customer/unblock', { user_ids: ['ghost'] })).status).toBe(404);
  });
});
