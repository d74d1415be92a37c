import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestProxy, type TestProxy } from './harness.js';
import { type CutProxy, startCutProxy } from './tcp-cut-proxy.js';

describe('readiness when the database goes away', () => {
  let cut: CutProxy;
  let t: TestProxy;
  beforeAll(async () => {
    cut = await startCutProxy({ host: '127.0.0.1', port: 5432 });
    t = await startTestProxy('postgres', {
      general_settings: { database_url: `postgres://postgres@127.0.0.1:${cut.port}/test` },
    });
  });
  afterAll(async () => {
    cut.restore();
    await t.close();
    await cut.close();
  });

  it('answers 503 naming the database while it is unreachable, and 200 once it is back', async () => {
    const ready = () => t.proxy.app.inject({ method: 'GET', url: '/health/readiness' });
    expect((await ready()).statusCode).toBe(200);
    cut.cut();
    const down = await ready();
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({
      status: 'unavailable',
      database: expect.stringMatching(/^unavailable: /),
    });
    expect(down.body).not.toContain('postgres://');
    cut.restore();
    await eventually(async () => expect((await ready()).statusCode).toBe(200), 5_000);
  });

  it('keeps serving model calls with the master key while the database is down', async () => {
    cut.cut();
    try {
      const res = await t.proxy.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { ...t.admin, 'content-type': 'application/json' },
        payload: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      cut.restore();
    }
  });
});
