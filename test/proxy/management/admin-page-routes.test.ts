import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, mockDeployment, startTestProxy, type TestProxy } from '../harness.js';
import { client } from './client.js';

const CALL_COST = 10 * 0.000001 + 5 * 0.000002; // prompt and completion tokens at the harness prices
const today = () => new Date().toISOString().slice(0, 10);

describe.each(ENGINES)('the routes the admin page reads (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine, {
      models: (mock) => [
        mockDeployment(mock, 'east'),
        mockDeployment(mock, 'west'),
        mockDeployment(mock, 'north', 'backup'),
      ],
      router_settings: { num_retries: 0, allowed_fails: 1 },
    });
    for (const id of ['east', 'west', 'north']) {
      t.mock.setBehavior(`/${id}`, { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
    }
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);
  const chat = (headers: Record<string, string>, model = 'gpt-4o') =>
    post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] }, headers);

  it('GET /key/list pages the keys newest first, without the keys themselves', async () => {
    const first = await newKey({ key_alias: 'list-first', max_budget: 5 });
    const second = await newKey({ key_alias: 'list-second' });
    const { status, body } = await get('/key/list?page=1&size=2');
    expect(status).toBe(200);
    expect(body).toMatchObject({ page: 1, size: 2, total: expect.any(Number) });
    expect(body.total).toBeGreaterThanOrEqual(2);
    expect(body.data.map((k: { key_hash: string }) => k.key_hash)).toEqual([second.keyHash, first.keyHash]);
    expect(body.data[1]).toMatchObject({ key_alias: 'list-first', max_budget: 5, spend: 0, blocked: false });
    expect(Date.parse(body.data[1].created_at)).not.toBeNaN();
    expect(JSON.stringify(body)).not.toContain(first.key);
  });

  it('GET /key/list names a bad page size', async () => {
    const { status, body } = await get('/key/list?size=501');
    expect(status).toBe(400);
    expect(body.error.message).toContain('size');
  });

  it('POST /key/delete revokes a key at once: its next call is 401', async () => {
    const { key, keyHash, headers } = await newKey();
    expect((await chat(headers)).status).toBe(200);
    const { status, body } = await post('/key/delete', { keys: [key] });
    expect(status).toBe(200);
    expect(body).toEqual({ deleted_keys: [keyHash] });
    expect((await chat(headers)).status).toBe(401);
  });

  it('POST /key/delete is 404 when none of the keys exists', async () => {
    const { status, body } = await post('/key/delete', { keys: ['sk-svc-not-a-key'] });
    expect(status).toBe(404);
    expect(body.error.code).toBe('key_not_found');
  });

  it('GET /team/list gives every team with its members', async () => {
    await post('/team/new', { team_id: 'list-ads', team_alias: 'List Ads', max_budget: 3 });
    await post('/team/member_add', { team_id: 'list-ads', user_id: 'zoe' });
    await post('/team/member_add', { team_id: 'list-ads', user_id: 'ada' });
    const { status, body } = await get('/team/list');
    expect(status).toBe(200);
    const team = body.data.find((x: { team_id: string }) => x.team_id === 'list-ads');
    expect(team).toMatchObject({
      team_alias: 'List Ads',
      max_budget: 3,
      blocked: false,
      members: ['ada', 'zoe'],
    });
  });

  it('GET /deployment/health shows a failing deployment cooling until a time, the others ok', async () => {
    t.mock.setBehavior('/west', { status: 500 });
    // calls are shuffled over east and west: enough of them that west fails past allowed_fails
    for (let i = 0; i < 30; i++) await chat(t.admin);
    const { status, body } = await get('/deployment/health');
    expect(status).toBe(200);
    const byId = Object.fromEntries(body.data.map((d: { deployment_id: string }) => [d.deployment_id, d]));
    expect(Object.keys(byId).sort()).toEqual(['east', 'north', 'west']);
    expect(byId.west).toMatchObject({
      model_group: 'gpt-4o',
      provider: 'openai',
      model: 'gpt-4o',
      state: 'cooling',
    });
    expect(Date.parse(byId.west.cooling_until)).toBeGreaterThan(Date.now());
    expect(byId.west.failures).toBeGreaterThan(0);
    expect(byId.east).toMatchObject({ state: 'ok', cooling_until: null, in_flight: 0 });
    expect(byId.east.latency_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(body)).not.toContain('sk-upstream');
    t.mock.setBehavior('/west', { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
  });

  it('GET /spend/report sums each day by model group, and by team', async () => {
    await post('/team/new', { team_id: 'report-team' });
    const { headers } = await newKey({ team_id: 'report-team' });
    for (let i = 0; i < 2; i++) expect((await chat(headers, 'backup')).status).toBe(200);
    await eventually(async () => {
      const { body } = await get('/spend/report?group_by=team');
      expect(body.data).toContainEqual({
        day: today(),
        group: 'report-team',
        spend: expect.closeTo(2 * CALL_COST, 12),
        requests: 2,
        prompt_tokens: 20,
        completion_tokens: 10,
      });
    });
    const { status, body } = await get(`/spend/report?start_date=${today()}&end_date=${today()}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ start_date: today(), end_date: today(), group_by: 'model' });
    const backup = body.data.find((r: { group: string }) => r.group === 'backup');
    expect(backup).toMatchObject({ day: today(), requests: 2 });
  });

  it('GET /spend/report names a bad date and a range too long', async () => {
    const bad = await get('/spend/report?start_date=2026-13-01');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('start_date');
    const long = await get('/spend/report?start_date=2024-01-01&end_date=2026-01-01');
    expect(long.status).toBe(400);
    expect(long.body.error.message).toContain('at most 366 days');
  });

  it('each of them refuses a virtual key with 403', async () => {
    const { headers } = await newKey();
    for (const path of ['/key/list', '/team/list', '/deployment/health', '/spend/report']) {
      expect((await get(path, headers)).status, path).toBe(403);
    }
    expect((await post('/key/delete', { keys: ['x'] }, headers)).status).toBe(403);
  });
});
