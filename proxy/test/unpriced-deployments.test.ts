import type { DeploymentConfig } from '@svc/router';
import type { MockProvider } from '@svc/router/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, mockDeployment, startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';

/** A deployment of a model no catalog prices, without prices of its own. */
function unpriced(
  mock: MockProvider,
  id: string,
  group: string,
  info: Record<string, unknown> = {},
): DeploymentConfig {
  const base = mockDeployment(mock, id, group, { model: 'openai/house-model' });
  const { input_cost_per_token: _in, output_cost_per_token: _out, ...params } = base.svc_params;
  return { ...base, svc_params: params as DeploymentConfig['svc_params'], model_info: { id, ...info } };
}

describe.each(ENGINES)('unpriced deployments behind the proxy (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine, {
      models: (mock) => [
        unpriced(mock, 'house', 'house'),
        unpriced(mock, 'allowed', 'allowed', { allow_unpriced: true }),
        mockDeployment(mock, 'priced', 'mixed'),
        unpriced(mock, 'free-ride', 'mixed'),
      ],
    });
    t.mock.setBehavior('/', { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);
  const chat = (model: string, headers?: Record<string, string>) =>
    post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] }, headers);
  const rowsOf = async (keyHash: string) => (await get(`/spend/logs?key=${keyHash}`)).body;

  it('shows priced: false on /deployment/health', async () => {
    const { body } = await get('/deployment/health');
    const priced = Object.fromEntries(
      body.data.map((d: { deployment_id: string; priced: boolean }) => [d.deployment_id, d.priced]),
    );
    expect(priced).toEqual({ house: false, allowed: false, priced: true, 'free-ride': false });
  });

  it('serves a key without a budget, its spend row saying cost 0 and priced: false', async () => {
    const key = await newKey();
    expect((await chat('house', key.headers)).status).toBe(200);
    await eventually(async () => {
      expect(await rowsOf(key.keyHash)).toMatchObject([
        { model_id: 'house', cost: 0, priced: false, status: 'success' },
      ]);
    });
  });

  it('refuses a key with a max_budget with 400 model_unpriced, before any upstream call', async () => {
    const key = await newKey({ max_budget: 1 });
    const before = t.mock.requests.length;
    const refused = await chat('house', key.headers);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'model_unpriced', type: 'invalid_request_error' });
    expect(refused.body.error.message).toContain('allow_unpriced');
    expect(t.mock.requests.length).toBe(before);
  });

  it('refuses a key whose team has a max_budget', async () => {
    await post('/team/new', { team_id: `budgeted-${engine}`, max_budget: 1 });
    const key = await newKey({ team_id: `budgeted-${engine}` });
    expect((await chat('house', key.headers)).body.error?.code).toBe('model_unpriced');
  });

  it('serves a budgeted key on a deployment with model_info.allow_unpriced', async () => {
    const key = await newKey({ max_budget: 1 });
    expect((await chat('allowed', key.headers)).status).toBe(200);
  });

  it('skips the unpriced deployments of a mixed group for a budgeted key, and charges the call', async () => {
    const key = await newKey({ max_budget: 1 });
    for (let i = 0; i < 8; i++) expect((await chat('mixed', key.headers)).status).toBe(200);
    await eventually(async () => {
      const rows = await rowsOf(key.keyHash);
      expect(rows).toHaveLength(8);
      expect(new Set(rows.map((r: { model_id: string }) => r.model_id))).toEqual(new Set(['priced']));
      expect(rows.every((r: { priced: boolean; cost: number }) => r.priced && r.cost > 0)).toBe(true);
    });
  });
});
