// The response cache on a gateway without Redis: the router's own memory, bounded in bytes as
// `cache_kwargs.max_bytes` says (docs/caching.md), not the gateway's store, bounded only by its keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';

describe('the response cache of a gateway without Redis', () => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy('pglite', {
      router_settings: { cache_responses: true, cache_kwargs: { max_bytes: 10_000 } },
    });
    t.mock.setBehavior('/', { content: 'x'.repeat(6000) });
  }, 60_000);
  afterAll(() => t?.close());

  const { post } = client(() => t);
  const ask = (content: string) =>
    post('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content }] });

  it('keeps answers within cache_kwargs.max_bytes, the least recently used going first', async () => {
    const sent = () => t.mock.requests.length;
    const before = sent();
    expect((await ask('first')).status).toBe(200);
    expect((await ask('first')).status).toBe(200); // a hit
    expect(sent()).toBe(before + 1);
    expect((await ask('second')).status).toBe(200); // 12 KB of answers: the first goes
    expect((await ask('first')).status).toBe(200);
    expect(sent()).toBe(before + 3);
  });
});
