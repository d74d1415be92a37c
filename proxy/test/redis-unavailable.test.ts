import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../test/support/tcp-faults.js';
import { eventually, startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';
import { clearOfMinuteEnd } from './minute-window.js';
import { type CutProxy, startCutProxy } from './tcp-cut-proxy.js';

type LogLine = { level: number; msg: string };

/** A proxy on `redisUrl`, its log lines kept. */
async function proxyOnRedis(redisUrl: string, lines: LogLine[]): Promise<TestProxy> {
  return startTestProxy('postgres', {
    router_settings: { redis_url: redisUrl, cache_kwargs: { namespace: `t-${randomUUID()}` } },
    general_settings: { log_level: 'info' },
    logStream: { write: (line) => void lines.push(JSON.parse(line)) },
  });
}

const outages = (lines: LogLine[]) => lines.filter((l) => l.msg.startsWith('shared store failed'));
const recoveries = (lines: LogLine[]) => lines.filter((l) => l.msg.startsWith('shared store answers again'));

// docs/scaling.md: without Redis every process keeps its own limits. A proxy whose Redis goes away
// serves on, counting rpm_limit in its own memory meanwhile, and says so once, not once per call.
describe('rate limits while Redis is unreachable', () => {
  describe('from the start (a port nothing listens on)', () => {
    const lines: LogLine[] = [];
    let t: TestProxy;
    beforeAll(async () => {
      t = await proxyOnRedis(`redis://127.0.0.1:${await closedPort()}`, lines);
    });
    afterAll(() => t.close());
    const { post, newKey } = client(() => t);
    const chat = (headers: Record<string, string>) =>
      post('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, headers);

    it('serves a key with rpm_limit, keeps the limit in memory, and logs the outage once', async () => {
      const { headers } = await newKey({ rpm_limit: 2 });
      await clearOfMinuteEnd(5_000);
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await chat(headers)).status);
      expect(statuses).toEqual([200, 200, 429]);
      expect(outages(lines)).toHaveLength(1);
      expect(outages(lines)[0]).toMatchObject({ level: 40, msg: expect.stringContaining('Redis') });
    });
  });

  describe('cut while running, then back', () => {
    const lines: LogLine[] = [];
    let cut: CutProxy;
    let t: TestProxy;
    beforeAll(async () => {
      cut = await startCutProxy({ host: '127.0.0.1', port: 6379 });
      t = await proxyOnRedis(`redis://127.0.0.1:${cut.port}`, lines);
    });
    afterAll(async () => {
      cut.restore();
      await t.close();
      await cut.close();
    });
    const { post, newKey } = client(() => t);
    const chat = (headers: Record<string, string>) =>
      post('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, headers);

    it('counts in memory during the outage, logs it and the recovery once each, then counts in Redis again', async () => {
      const limited = await newKey({ rpm_limit: 3 });
      const unlimited = await newKey();
      await clearOfMinuteEnd(5_000);
      expect((await chat(limited.headers)).status).toBe(200); // counted in Redis: 1

      cut.cut();
      const during = [];
      for (let i = 0; i < 4; i++) during.push((await chat(limited.headers)).status);
      expect(during).toEqual([200, 200, 200, 429]); // counted in memory from 0
      expect(outages(lines)).toHaveLength(1);

      cut.restore();
      // the store counts as back after a second without failures: calls keep coming meanwhile
      await eventually(async () => {
        expect((await chat(unlimited.headers)).status).toBe(200);
        expect(recoveries(lines)).toHaveLength(1);
      }, 5_000);
      const after = [];
      for (let i = 0; i < 3; i++) after.push((await chat(limited.headers)).status);
      expect(after).toEqual([200, 200, 429]); // Redis again: 1 before the cut, 2 more
      expect(outages(lines)).toHaveLength(1);
    });
  });
});
