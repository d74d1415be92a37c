import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, startTestProxy, type TestProxy } from './harness.js';

const CALL_COST = 10 * 0.000001 + 5 * 0.000002; // prompt and completion tokens at the harness prices

describe.each(ENGINES)('a budgeted key under racing calls (%s)', (engine) => {
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

  it('spends at most its budget plus one call when 50 calls race for budget of 10', async () => {
    const generated = await fetch(`${t.url}/key/generate`, {
      method: 'POST',
      headers: { ...t.admin, 'content-type': 'application/json' },
      body: JSON.stringify({ max_budget: 10 * CALL_COST }),
    });
    const { key, key_hash } = (await generated.json()) as { key: string; key_hash: string };
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const res = await fetch(`${t.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
        });
        const body = (await res.json()) as { error?: { code: string } };
        return res.status === 200 ? 200 : `${res.status} ${body.error?.code}`;
      }),
    );
    const served = statuses.filter((s) => s === 200).length;
    expect(served).toBeGreaterThanOrEqual(10);
    expect(served).toBeLessThanOrEqual(11);
    expect(new Set(statuses.filter((s) => s !== 200))).toEqual(new Set(['400 budget_exceeded']));
    await eventually(async () => {
      const info = (await (
        await fetch(`${t.url}/key/info?key=${key_hash}`, { headers: t.admin })
      ).json()) as {
        info: { spend: number; max_budget: number };
      };
      expect(info.info.spend).toBeCloseTo(served * CALL_COST, 12);
      expect(info.info.spend).toBeLessThanOrEqual(info.info.max_budget + CALL_COST + 1e-12);
    });
  });
});
