import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTER_KEY, startTestProxy, type TestProxy } from './harness.js';

describe('POST /v1/messages through the Anthropic SDK', () => {
  let t: TestProxy;
  let client: Anthropic;
  beforeAll(async () => {
    t = await startTestProxy('pglite', {
      models: (mock) => [
        {
          model_name: 'gpt-4o',
          svc_params: { model: 'openai/gpt-4o', api_base: `${mock.url}/oa/v1`, api_key: 'sk-up-0000' },
          model_info: { id: 'oa' },
        },
        {
          model_name: 'claude',
          svc_params: {
            model: 'anthropic/claude-sonnet-4-5',
            api_base: `${mock.url}/an`,
            api_key: 'sk-ant-0000',
          },
          model_info: { id: 'an' },
        },
      ],
    });
    client = new Anthropic({ apiKey: MASTER_KEY, baseURL: t.url, maxRetries: 0 });
  });
  afterAll(() => t.close());

  it('answers a message from an OpenAI deployment in Anthropic format', async () => {
    t.mock.setBehavior('/oa', { content: 'Hello from OpenAI' });
    const message = await client.messages.create({
      model: 'gpt-4o',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.type).toBe('message');
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'Hello from OpenAI' })]);
    expect(message.stop_reason).toBe('end_turn');
  });

  it('streams a thinking answer the SDK accumulates, signature included', async () => {
    t.mock.setBehavior('/an', {
      reasoning: 'Let me think.',
      signature: 'sig-123',
      content: 'The answer is 4.',
    });
    const stream = client.messages.stream({
      model: 'claude',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: '2+2?' }],
    });
    const message = await stream.finalMessage();
    expect(message.content[0]).toMatchObject({
      type: 'thinking',
      thinking: 'Let me think.',
      signature: 'sig-123',
    });
    expect(message.content[1]).toMatchObject({ type: 'text', text: 'The answer is 4.' });
  });

  it('reads a thinking answer without streaming', async () => {
    t.mock.setBehavior('/an', { reasoning: 'Think.', signature: 'sig-9', content: 'Four.' });
    const message = await client.messages.create({
      model: 'claude',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: '2+2?' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: 'Think.', signature: 'sig-9' });
    expect(message.content[1]).toMatchObject({ type: 'text', text: 'Four.' });
  });

  it('refuses a bad key with an Anthropic-shaped 401', async () => {
    const stranger = new Anthropic({ apiKey: 'sk-nope-0000000000', baseURL: t.url, maxRetries: 0 });
    const error = await stranger.messages
      .create({ model: 'gpt-4o', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
  });
});
