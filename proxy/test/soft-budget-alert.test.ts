import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';

const CALL_COST = 10 * 0.000001 + 5 * 0.000002;

/** A local chat webhook: every line of every `{ text }` body it receives. */
async function startWebhook(): Promise<{ url: string; lines: string[]; close(): Promise<void> }> {
  const lines: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      lines.push(...(JSON.parse(body) as { text: string }).text.split('\n'));
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/T000/B000`,
    lines,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.each(ENGINES)('soft_budget (%s)', (engine) => {
  let t: TestProxy;
  let hook: Awaited<ReturnType<typeof startWebhook>>;
  beforeAll(async () => {
    hook = await startWebhook();
    t = await startTestProxy(engine, {
      router_settings: { alerting_config: { webhook_url: hook.url, flush_interval: 0.05 } },
    });
    t.mock.setBehavior('/', { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
  });
  const { post, newKey } = client(() => t);
  const chat = (headers: Record<string, string>) =>
    post('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, headers);
  const alertsOf = (who: string) =>
    hook.lines.filter((l) => l.startsWith('[budget_alert]') && l.includes(who));

  it('raises one budget_alert through the alerting webhook when a key crosses its soft budget', async () => {
    const key = await newKey({ key_alias: 'soft-key', soft_budget: 1.5 * CALL_COST, max_budget: 1 });
    expect((await chat(key.headers)).status).toBe(200);
    expect((await chat(key.headers)).status).toBe(200);
    expect((await chat(key.headers)).status).toBe(200);
    await eventually(() => expect(alertsOf('key `soft-key`')).toHaveLength(1));
    expect(alertsOf('key `soft-key`')[0]).toMatch(
      /crossed its soft_budget \$0\.00003: spend=\$0\.000040 max_budget=\$1/,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(alertsOf('key `soft-key`')).toHaveLength(1);
  });

  it("raises the alert of a team's soft budget crossed by its keys' calls", async () => {
    await post('/team/new', { team_id: 'soft-team', soft_budget: CALL_COST / 2 });
    const key = await newKey({ team_id: 'soft-team' });
    expect((await chat(key.headers)).status).toBe(200);
    await eventually(() => expect(alertsOf('team `soft-team`')).toHaveLength(1));
  });
});
