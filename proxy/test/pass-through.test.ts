// Pass-through endpoints (CONTRACT 6.7, issue 26 item 4): `path/*` forwarded to `target/*` with the
// configured headers, a virtual key required, spend rows from the answer's usage, budgets applied.
import Anthropic from '@anthropic-ai/sdk';
import { lookupModelPrice } from '@svc/router';
import { type MockProvider, startMockProvider } from '@svc/router/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';

const MODEL = 'claude-3-5-haiku-20241022';
const USAGE = { prompt_tokens: 1000, completion_tokens: 200 };

describe.each(ENGINES)('pass-through endpoints (%s)', (engine) => {
  let t: TestProxy;
  let upstream: MockProvider;
  beforeAll(async () => {
    upstream = await startMockProvider();
    t = await startTestProxy(engine, {
      env: { UPSTREAM_ANTHROPIC_KEY: 'sk-ant-upstream-0000' },
      general_settings: {
        pass_through_endpoints: [
          {
            path: '/anthropic',
            target: `${upstream.url}/ant`,
            headers: { 'x-api-key': 'os.environ/UPSTREAM_ANTHROPIC_KEY' },
            provider: 'anthropic',
          },
          {
            path: '/openai',
            target: `${upstream.url}/oa`,
            headers: { authorization: 'Bearer sk-oa-up' },
            provider: 'openai',
          },
          {
            path: '/gemini',
            target: `${upstream.url}/gm`,
            headers: { 'x-goog-api-key': 'g-up' },
            provider: 'gemini',
          },
        ],
      },
    });
    upstream.setBehavior('/', { usage: USAGE });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  const { get, newKey } = client(() => t);
  const rowsOf = async (keyHash: string, count: number) => {
    let rows: Array<Record<string, unknown>> = [];
    await eventually(async () => {
      rows = (await get(`/spend/logs?key=${keyHash}`)).body;
      if (rows.length < count) throw new Error(`${rows.length} of ${count} spend rows`);
    });
    return rows;
  };
  const price = lookupModelPrice(`anthropic/${MODEL}`)!;
  const expectedCost =
    USAGE.prompt_tokens * price.input_cost_per_token + USAGE.completion_tokens * price.output_cost_per_token;
  const anthropic = (key: string) =>
    new Anthropic({ baseURL: `${t.url}/anthropic`, apiKey: key, maxRetries: 0 });

  it('forwards an Anthropic SDK call with the configured key, never the caller’s, and charges its usage', async () => {
    const { key, keyHash } = await newKey();
    const message = await anthropic(key).messages.create({
      model: MODEL,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.usage.input_tokens).toBe(1000);
    const seen = upstream.requests.at(-1)!;
    expect(seen.path).toBe('/ant/v1/messages');
    expect(seen.headers['x-api-key']).toBe('sk-ant-upstream-0000');
    expect(JSON.stringify(seen.headers)).not.toContain(key);
    const [row] = await rowsOf(keyHash, 1);
    expect(row).toMatchObject({
      route: '/anthropic',
      model_group: MODEL,
      provider: 'anthropic',
      prompt_tokens: 1000,
      completion_tokens: 200,
      status: 'success',
    });
    expect(row!.cost).toBeCloseTo(expectedCost, 12);
  });

  it('streams an Anthropic SDK call through and charges the usage read from its events', async () => {
    const { key, keyHash } = await newKey();
    const stream = anthropic(key).messages.stream({
      model: MODEL,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const final = await stream.finalMessage();
    expect(final.usage.output_tokens).toBe(200);
    const [row] = await rowsOf(keyHash, 1);
    expect(row).toMatchObject({
      stream: true,
      prompt_tokens: 1000,
      completion_tokens: 200,
      status: 'success',
    });
    expect(row!.cost).toBeCloseTo(expectedCost, 12);
  });

  it('reads OpenAI usage from a plain body and from a stream’s usage chunk', async () => {
    const { key, keyHash } = await newKey();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const body = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };
    const plain = await fetch(`${t.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    expect(plain.status).toBe(200);
    await plain.json();
    const streamed = await fetch(`${t.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...body, stream: true, stream_options: { include_usage: true } }),
    });
    expect(await streamed.text()).toContain('[DONE]');
    expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer sk-oa-up');
    const rows = await rowsOf(keyHash, 2);
    for (const row of rows) {
      expect(row).toMatchObject({ provider: 'openai', prompt_tokens: 1000, completion_tokens: 200 });
      expect(row.cost).toBeGreaterThan(0);
    }
  });

  it('reads Gemini usageMetadata from a streamed answer, the key in x-goog-api-key', async () => {
    const { key, keyHash } = await newKey();
    const res = await fetch(`${t.url}/gemini/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const seen = upstream.requests.at(-1)!;
    expect(seen.path).toBe('/gm/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse');
    expect(seen.headers['x-goog-api-key']).toBe('g-up');
    const [row] = await rowsOf(keyHash, 1);
    expect(row).toMatchObject({
      provider: 'gemini',
      model_group: expect.stringContaining('gemini-2.0-flash'),
      prompt_tokens: 1000,
      completion_tokens: 200,
    });
    expect(row!.cost).toBeGreaterThan(0);
  });

  it('refuses a call without a key with 401 and forwards nothing', async () => {
    const before = upstream.requests.length;
    const res = await fetch(`${t.url}/anthropic/v1/messages`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    expect(upstream.requests.length).toBe(before);
  });

  it('refuses a key over its budget before forwarding', async () => {
    const { key } = await newKey({ max_budget: expectedCost / 2 });
    const call = () =>
      anthropic(key).messages.create({
        model: MODEL,
        max_tokens: 8,
        messages: [{ role: 'user', content: 'hi' }],
      });
    await call();
    const before = upstream.requests.length;
    await expect(call()).rejects.toMatchObject({ status: 400 });
    expect(upstream.requests.length).toBe(before);
  });
});
