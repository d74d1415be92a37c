import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestProxy, type TestProxy } from '../harness.js';

// The library checks the standard OpenAI fields (src/router/openai-fields.ts); the gateway answers its
// verdict as a 400 naming the field, and the upstream is never called.

describe('a chat call with a standard field of the wrong type or out of range', () => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy('pglite');
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (extra: Record<string, unknown>) =>
    fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...t.admin, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], ...extra }),
    });

  it.each([
    [{ max_tokens: -1 }, 'request.max_tokens'],
    [{ temperature: 'hot' }, 'request.temperature'],
    [{ stream: true, top_p: 7 }, 'request.top_p'],
  ])('%o is 400 naming the field, never sent upstream', async (extra, field) => {
    const before = t.mock.requests.length;
    const res = await post(extra);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(res.status).toBe(400);
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain(`${field}:`);
    expect(t.mock.requests.length).toBe(before);
  });

  it('passes a field a provider adds', async () => {
    const res = await post({ top_k: 40, temperature: 0.2 });
    expect(res.status).toBe(200);
    expect(t.mock.requests.at(-1)?.body).toMatchObject({ top_k: 40, temperature: 0.2 });
  });
});
