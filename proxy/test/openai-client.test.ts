import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, startTestProxy, type TestProxy } from './harness.js';

describe.each(ENGINES)('the proxy through the openai SDK (%s)', (engine) => {
  let t: TestProxy;
  let client: OpenAI;
  beforeAll(async () => {
    t = await startTestProxy(engine);
    client = new OpenAI({ apiKey: 'sk-master-test-0123456789', baseURL: `${t.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => t.close());

  it('answers a chat completion, with the call id (a time-ordered UUID) and the proxy overhead in headers', async () => {
    t.mock.setBehavior('/east', { content: 'Hello from east' });
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe('Hello from east');
    expect(response.headers.get('x-svc-call-id')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(Number(response.headers.get('x-svc-overhead-ms'))).toBeGreaterThanOrEqual(0);
  });

  it('streams a chat completion as server-sent events the SDK reads to the end', async () => {
    t.mock.setBehavior('/east', { content: 'one two three four' });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('one two three four');
  });

  it('ends a stream that fails after its first chunk with an error the SDK throws', async () => {
    t.mock.setBehavior('/east', { content: 'one two three four five six', stream: { cutAfter: 2 } });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let text = '';
    const read = (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })();
    await expect(read).rejects.toThrow();
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toBe('one two three four five six');
  });

  it('lists the model groups', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['gpt-4o']);
  });

  it('answers embeddings', async () => {
    t.mock.setBehavior('/east', { dimensions: 4 });
    const res = await client.embeddings.create({ model: 'gpt-4o', input: 'hello' });
    expect(res.data[0]?.embedding).toHaveLength(4);
  });

  it('names an unknown model with a 400 and the closest group', async () => {
    const error = await client.chat.completions
      .create({ model: 'gpt-4', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('gpt-4o');
  });

  it('runs a virtual key from /key/generate and logs its spend', async () => {
    t.mock.setBehavior('/east', {
      content: 'paid answer',
      usage: { prompt_tokens: 10, completion_tokens: 5 },
    });
    const generated = await fetch(`${t.url}/key/generate`, {
      method: 'POST',
      headers: { ...t.admin, 'content-type': 'application/json' },
      body: JSON.stringify({ models: ['gpt-4o'], key_alias: `alias-${engine}`, max_budget: 10 }),
    });
    expect(generated.status).toBe(200);
    const { key, key_hash } = (await generated.json()) as { key: string; key_hash: string };
    const keyed = new OpenAI({ apiKey: key, baseURL: `${t.url}/v1`, maxRetries: 0 });
    const { response } = await keyed.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], user: 'end-user-1' })
      .withResponse();
    const callId = response.headers.get('x-svc-call-id');
    await eventually(async () => {
      const rows = (await (
        await fetch(`${t.url}/spend/logs?key=${key_hash}`, { headers: t.admin })
      ).json()) as Array<Record<string, unknown>>;
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        call_id: callId,
        key_hash,
        model_group: 'gpt-4o',
        model_id: 'east',
        end_user: 'end-user-1',
        prompt_tokens: 10,
        completion_tokens: 5,
        status: 'success',
      });
      expect(rows[0]?.cost).toBeCloseTo(10 * 0.000001 + 5 * 0.000002, 12);
    });
    const info = (await (
      await fetch(`${t.url}/key/info`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as {
      info: { spend: number };
    };
    expect(info.info.spend).toBeCloseTo(0.00002, 12);
  });
});
