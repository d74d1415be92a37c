import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, mockDeployment, startTestProxy, type TestProxy } from '../harness.js';
import { client } from './client.js';

const CALL_COST = 10 * 0.000001 + 5 * 0.000002; // prompt and completion tokens at the harness prices
const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const today = () => dayOf(Date.now());

describe.each(ENGINES)('GET /spend/report (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine, {
      models: (mock) => [mockDeployment(mock, 'east'), mockDeployment(mock, 'north', 'backup')],
    });
    for (const id of ['east', 'north']) {
      t.mock.setBehavior(`/${id}`, { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
    }
    // calls of one day: two on `backup` by a team's key, one on `gpt-4o` by a key of no team
    const { post, get, newKey } = client(() => t);
    const chat = (headers: Record<string, string>, model: string) =>
      post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] }, headers);
    await post('/team/new', { team_id: 'report-team' });
    const team = await newKey({ team_id: 'report-team' });
    const solo = await newKey();
    for (const [headers, model] of [
      [team.headers, 'backup'],
      [team.headers, 'backup'],
      [solo.headers, 'gpt-4o'],
    ] as const) {
      expect((await chat(headers, model)).status).toBe(200);
    }
    await eventually(async () => expect((await get('/spend/logs')).body).toHaveLength(3));
  });
  afterAll(() => t.close());
  const { get, newKey } = client(() => t);

  it('sums each day by model group by default, sorted by group', async () => {
    const { status, body } = await get(`/spend/report?start_date=${today()}&end_date=${today()}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      start_date: today(),
      end_date: today(),
      group_by: 'model',
      data: [
        {
          day: today(),
          group: 'backup',
          spend: expect.closeTo(2 * CALL_COST, 12),
          requests: 2,
          prompt_tokens: 20,
          completion_tokens: 10,
        },
        {
          day: today(),
          group: 'gpt-4o',
          spend: expect.closeTo(CALL_COST, 12),
          requests: 1,
          prompt_tokens: 10,
          completion_tokens: 5,
        },
      ],
    });
  });

  it('group_by=team sums by team; calls of no team are the null group, last', async () => {
    const { body } = await get('/spend/report?group_by=team');
    expect(body.group_by).toBe('team');
    expect(body.data.map((r: { group: string | null }) => r.group)).toEqual(['report-team', null]);
    expect(body.data.map((r: { requests: number }) => r.requests)).toEqual([2, 1]);
  });

  it('defaults to the 30 days ending today (UTC), end_date included', async () => {
    const { body } = await get('/spend/report');
    expect(body).toMatchObject({ start_date: dayOf(Date.now() - 29 * DAY_MS), end_date: today() });
    expect(body.data).toHaveLength(2);
  });

  it('leaves out the days outside the range', async () => {
    const yesterday = dayOf(Date.now() - DAY_MS);
    const weekAgo = dayOf(Date.now() - 7 * DAY_MS);
    const { status, body } = await get(`/spend/report?start_date=${weekAgo}&end_date=${yesterday}`);
    expect(status).toBe(200);
    expect(body.data).toEqual([]);
  });

  it('takes a range of 366 days and refuses one of 367, naming start_date', async () => {
    expect((await get('/spend/report?start_date=2024-01-01&end_date=2024-12-31')).status).toBe(200);
    const { status, body } = await get('/spend/report?start_date=2024-01-01&end_date=2025-01-01');
    expect(status).toBe(400);
    expect(body.error.message).toContain('start_date');
    expect(body.error.message).toContain('at most 366 days');
  });

  it('refuses a start_date after end_date, naming it', async () => {
    const { status, body } = await get('/spend/report?start_date=2026-11-02&end_date=2026-11-01');
    expect(status).toBe(400);
    expect(body.error.message).toContain('start_date');
  });

  it.each([
    ['start_date=2026-13-01', 'start_date'],
    ['start_date=2026-02-30', 'start_date'],
    ['end_date=23-11-2026', 'end_date'],
    ['group_by=user', 'group_by'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const { status, body } = await get(`/spend/report?${query}`);
    expect(status).toBe(400);
    expect(body.error.message).toContain(field);
  });

  it('refuses a virtual key with 403', async () => {
    const { headers } = await newKey();
    expect((await get('/spend/report', headers)).status).toBe(403);
  });
});
