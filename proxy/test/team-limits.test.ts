import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockDeployment, startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';
import { clearOfMinuteEnd } from './minute-window.js';

const CALL_COST = 10 * 0.000001 + 5 * 0.000002; // prompt and completion tokens at the harness prices

// Limits are the same code on either engine; Postgres starts fastest.
describe("a team's budget, limits and models apply to every key of the team", () => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy('postgres', {
      models: (mock) => [mockDeployment(mock, 'east'), mockDeployment(mock, 'west', 'backup')],
    });
    for (const id of ['east', 'west']) {
      t.mock.setBehavior(`/${id}`, { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
    }
  });
  afterAll(() => t.close());
  const { post, newKey } = client(() => t);
  const chat = (headers: Record<string, string>, model = 'gpt-4o') =>
    post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] }, headers);

  it('refuses every key of a team once the team has spent its max_budget, naming the team', async () => {
    await post('/team/new', { team_id: 'budgeted', max_budget: 2 * CALL_COST });
    const first = await newKey({ team_id: 'budgeted' });
    const second = await newKey({ team_id: 'budgeted' });
    expect((await chat(first.headers)).status).toBe(200);
    expect((await chat(second.headers)).status).toBe(200);
    const refused = await chat(first.headers);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('budget_exceeded');
    expect(refused.body.error.message).toContain('team `budgeted` has spent');
    expect((await chat(second.headers)).body.error?.code).toBe('budget_exceeded');
  });

  it("counts a team's rpm_limit across its keys and answers 429 naming the team", async () => {
    await clearOfMinuteEnd();
    await post('/team/new', { team_id: 'metered', rpm_limit: 2 });
    const first = await newKey({ team_id: 'metered' });
    const second = await newKey({ team_id: 'metered' });
    expect((await chat(first.headers)).status).toBe(200);
    expect((await chat(second.headers)).status).toBe(200);
    const refused = await chat(first.headers);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^Team `metered` is over its rpm_limit of 2 this minute/);
  });

  it("refuses a model outside the team's models with 403, even for a key without a model list", async () => {
    await post('/team/new', { team_id: 'narrow', models: ['gpt-*'] });
    const { headers } = await newKey({ team_id: 'narrow' });
    expect((await chat(headers, 'gpt-4o')).status).toBe(200);
    const refused = await chat(headers, 'backup');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'model_not_allowed' });
    expect(refused.body.error.message).toContain("This key's team `narrow` may not call model `backup`");
  });

  it('lets the keys of a team without a budget or limits through', async () => {
    await post('/team/new', { team_id: 'free' });
    const { headers } = await newKey({ team_id: 'free' });
    for (let i = 0; i < 3; i++) expect((await chat(headers)).status).toBe(200);
  });
});
