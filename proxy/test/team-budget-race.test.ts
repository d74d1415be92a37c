import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';

const CALL_COST = 10 * 0.000001 + 5 * 0.000002; // prompt and completion tokens at the harness prices

describe.each(ENGINES)('a team budget shared by two keys under racing calls (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine);
    t.mock.setBehavior('/east', {
      content: 'ok',
      delayMs: 5,
      usage: { prompt_tokens: 10, completion_tokens: 5 },
    });
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);

  it('spends at most the last dollar plus one call when 50 calls of two keys race for it', async () => {
    // the team has spent all but its last 10 calls' worth before the race
    await post('/team/new', { team_id: 'shared', max_budget: 20 * CALL_COST });
    const [first, second] = [await newKey({ team_id: 'shared' }), await newKey({ team_id: 'shared' })];
    for (let i = 0; i < 10; i++) {
      expect(
        (
          await post(
            '/v1/chat/completions',
            { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
            first.headers,
          )
        ).status,
      ).toBe(200);
    }
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const res = await fetch(`${t.url}/v1/chat/completions`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${(i % 2 ? first : second).key}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
        });
        const body = (await res.json()) as { error?: { code: string; message: string } };
        return res.status === 200
          ? 200
          : `${res.status} ${body.error?.code} ${body.error?.message.includes('team `shared`')}`;
      }),
    );
    const served = statuses.filter((s) => s === 200).length;
    expect(served).toBeGreaterThanOrEqual(10);
    expect(served).toBeLessThanOrEqual(11);
    expect(new Set(statuses.filter((s) => s !== 200))).toEqual(new Set(['400 budget_exceeded true']));
    await eventually(async () => {
      const { body } = await get('/team/info?team_id=shared');
      expect(body.spend).toBeCloseTo((10 + served) * CALL_COST, 12);
      expect(body.spend).toBeLessThanOrEqual(20 * CALL_COST + CALL_COST + 1e-12);
    });
  });
});
