import { type MockProvider, startMockProvider } from '@svc/router/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProxy, startProxy } from '../../src/index.js';
import { closeTestDatabases, engines } from '../db-engines.js';
import { MASTER_KEY, mockDeployment } from '../harness.js';
import { clearOfMinuteEnd } from '../minute-window.js';

const admin = { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' };

/** POSTs through the proxy's own socket, as another client of that process would. */
async function call(proxy: RunningProxy, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${proxy.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read field by field
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const chat = (proxy: RunningProxy, key: string) =>
  call(
    proxy,
    '/v1/chat/completions',
    { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
    {
      authorization: `Bearer ${key}`,
    },
  );

/** Calls until `status` comes back (every 20 ms, at most 3 s); resolves how long it took. */
async function msUntil(status: number, send: () => Promise<{ status: number }>): Promise<number> {
  const start = Date.now();
  for (;;) {
    if ((await send()).status === status) return Date.now() - start;
    if (Date.now() - start > 3_000) throw new Error(`no ${status} within 3 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Two proxies on one database stand for two processes of a deployment: a change made through one is
// in force in the other within a second (the shared change poll), though its key cache (key_cache_ttl
// 10 s by default) still holds the key.
describe.each(engines)('a change made in one proxy process, seen by another ($name)', (engine) => {
  let mock: MockProvider;
  let a: RunningProxy;
  let b: RunningProxy;
  beforeAll(async () => {
    mock = await startMockProvider();
    mock.setBehavior('/east', { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
    const [first, second] = await engine.openTwo();
    const config = {
      model_list: [mockDeployment(mock, 'east')],
      general_settings: { master_key: MASTER_KEY, log_level: 'silent', spend_flush_interval: 0.05 },
    };
    a = await startProxy({ config, port: 0, env: {}, database: first });
    b = await startProxy({ config, port: 0, env: {}, database: second });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await mock?.close();
    await closeTestDatabases();
  });

  const newKey = async () => (await call(a, '/key/generate', {}, admin)).body.key as string;

  it('a key blocked through one process is refused 403 key_blocked by the other within a second', async () => {
    const key = await newKey();
    expect((await chat(b, key)).status).toBe(200); // b caches the key
    expect((await call(a, '/key/block', { key }, admin)).status).toBe(200);
    const ms = await msUntil(403, () => chat(b, key));
    expect(ms).toBeLessThan(1_000);
    const refused = await chat(b, key);
    expect(refused.body.error.code).toBe('key_blocked');
    await call(a, '/key/unblock', { key }, admin);
    expect(await msUntil(200, () => chat(b, key))).toBeLessThan(1_000);
  });

  it('a key regenerated away through one process is refused 401 by the other within a second', async () => {
    const key = await newKey();
    expect((await chat(b, key)).status).toBe(200);
    const regenerated = await call(a, '/key/regenerate', { key }, admin);
    expect(await msUntil(401, () => chat(b, key))).toBeLessThan(1_000);
    expect((await chat(b, regenerated.body.key)).status).toBe(200);
  });

  it('an updated rpm_limit is enforced by the other process within a second', async () => {
    await clearOfMinuteEnd();
    const key = await newKey();
    expect((await chat(b, key)).status).toBe(200);
    await call(a, '/key/update', { key, rpm_limit: 1 }, admin);
    expect(await msUntil(429, () => chat(b, key))).toBeLessThan(1_000);
  });
});
