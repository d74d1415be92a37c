import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, mockDeployment, startTestProxy, type TestProxy } from '../harness.js';
import { client } from './client.js';

type Row = Record<string, unknown> & { deployment_id: string };

// the router's view, not the database's: one engine is enough
describe('GET /deployment/health', () => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy('postgres', {
      models: (mock) => [
        mockDeployment(mock, 'east'),
        mockDeployment(mock, 'west'),
        mockDeployment(mock, 'north', 'brief'),
        mockDeployment(mock, 'south', 'brief', { cooldown_time: 0.05 }),
      ],
      router_settings: { num_retries: 0, allowed_fails: 1 },
    });
    for (const id of ['east', 'west', 'north', 'south']) {
      t.mock.setBehavior(`/${id}`, { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
    }
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);
  const chat = (model: string) =>
    post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] });
  const health = async (): Promise<Record<string, Row>> => {
    const { status, body } = await get('/deployment/health');
    expect(status).toBe(200);
    return Object.fromEntries(body.data.map((d: Row) => [d.deployment_id, d]));
  };
  /** Calls `model` (the router shuffles its deployments) until `id` is no longer ok, at most 60 times. */
  const callUntilCooled = async (model: string, id: string) => {
    for (let i = 0; i < 60 && (await health())[id]?.state === 'ok'; i++) await chat(model);
  };

  it('lists every deployment, ok, never called, with no secret', async () => {
    const { status, body } = await get('/deployment/health');
    expect(status).toBe(200);
    expect(body.data.map((d: Row) => d.deployment_id)).toEqual(['east', 'west', 'north', 'south']);
    expect(body.data[0]).toEqual({
      model_group: 'gpt-4o',
      deployment_id: 'east',
      provider: 'openai',
      model: 'gpt-4o',
      state: 'ok',
      cooling_until: null,
      in_flight: 0,
      requests: 0,
      failures: 0,
      error_rate: 0,
      latency_ms: null,
      priced: true,
    });
    expect(JSON.stringify(body)).not.toContain('sk-upstream');
    expect(JSON.stringify(body)).not.toContain(t.mock.url);
  });

  it('shows a failing deployment cooling until a time, with its failures; the others ok', async () => {
    t.mock.setBehavior('/west', { status: 500 });
    await callUntilCooled('gpt-4o', 'west');
    // west is cooling: this call goes to east, so east has a call this minute whatever the shuffle did
    expect((await chat('gpt-4o')).status).toBe(200);
    const { west, east } = await health();
    expect(west).toMatchObject({ model_group: 'gpt-4o', state: 'cooling' });
    expect(Date.parse(west!.cooling_until as string)).toBeGreaterThan(Date.now());
    expect(west!.failures).toBeGreaterThan(0);
    expect(west!.error_rate).toBeGreaterThan(0);
    expect(west!.error_rate).toBeLessThanOrEqual(1);
    expect(east).toMatchObject({
      state: 'ok',
      cooling_until: null,
      in_flight: 0,
      failures: 0,
      error_rate: 0,
    });
    expect(east!.requests).toBeGreaterThan(0);
    expect(east!.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('shows a deployment whose cooldown ended as half_open until a call succeeds', async () => {
    t.mock.setBehavior('/south', { status: 500 });
    await callUntilCooled('brief', 'south');
    t.mock.setBehavior('/south', { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
    await eventually(async () => expect((await health()).south).toMatchObject({ state: 'half_open' }));
    expect((await health()).south).toMatchObject({ cooling_until: null });
    for (let i = 0; i < 60 && (await health()).south?.state !== 'ok'; i++) await chat('brief');
    expect((await health()).south).toMatchObject({ state: 'ok', cooling_until: null });
  });

  it('refuses a virtual key with 403', async () => {
    const { headers } = await newKey();
    const { status, body } = await get('/deployment/health', headers);
    expect(status).toBe(403);
    expect(body.error.code).toBe('admin_only');
  });

  it('is listed by GET /routes', async () => {
    const { body } = await get('/routes');
    const paths = body.routes.map((r: { path: string }) => r.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/deployment/health',
        '/key/list',
        '/key/delete',
        '/team/list',
        '/spend/report',
      ]),
    );
  });
});
