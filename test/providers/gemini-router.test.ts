import { describe, expect, it } from 'vitest';
import { type ChatCompletion, type ChatCompletionChunk, type ChatMessage, Router } from '../../src/index.js';
import { useMock } from '../helpers.js';
import { API_KEY } from './gemini-helpers.js';

const mock = useMock();

const TOOLS = [
  {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

const router = (model = 'gemini/gemini-3-pro-preview', extra: Record<string, unknown> = {}) =>
  new Router([
    {
      model_name: 'smart',
      svc_params: { model, api_base: `${mock.url}/gr`, api_key: API_KEY, ...extra },
      model_info: { id: 'gemini-dep' },
    },
  ]);

describe('Gemini through the Router', () => {
  it('routes a gemini/ deployment to AI Studio and returns the envelope', async () => {
    mock.setBehavior('/gr', { content: 'Bonjour' });
    const r = router();
    const res = (await r.acompletion({
      model: 'smart',
      messages: [{ role: 'user', content: 'hi' }],
    })) as ChatCompletion;
    await r.close();
    expect(mock.requests[0]?.path).toBe('/gr/v1beta/models/gemini-3-pro-preview:generateContent');
    expect(res.choices[0]?.message.content).toBe('Bonjour');
    expect(
      (res as ChatCompletion & { _hidden_params: { custom_llm_provider: string } })._hidden_params
        .custom_llm_provider,
    ).toBe('gemini');
  });

  it('routes the google/ alias to the same adapter', async () => {
    const r = router('google/gemini-2.5-flash');
    await r.acompletion({ model: 'smart', messages: [{ role: 'user', content: 'hi' }] });
    await r.close();
    expect(mock.requests[0]?.path).toBe('/gr/v1beta/models/gemini-2.5-flash:generateContent');
  });

  it('sends a functionCall’s thoughtSignature back verbatim on the next turn of a tool flow', async () => {
    mock.setBehavior('/gr', {
      toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
      signature: 'sig-gemini-3-abc==',
    });
    const r = router();
    const messages: ChatMessage[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = (await r.acompletion({ model: 'smart', messages, tools: TOOLS })) as ChatCompletion;
    const assistant = first.choices[0]!.message;
    expect(assistant.tool_calls?.[0]?.provider_specific_fields).toEqual({
      thought_signature: 'sig-gemini-3-abc==',
    });
    messages.push(assistant as ChatMessage, {
      role: 'tool',
      tool_call_id: assistant.tool_calls![0]!.id,
      content: '{"temp_c":21}',
    });
    mock.setBehavior('/gr', { content: 'It is 21°C in Paris.' });
    const second = (await r.acompletion({ model: 'smart', messages, tools: TOOLS })) as ChatCompletion;
    await r.close();
    expect(second.choices[0]?.message.content).toBe('It is 21°C in Paris.');
    const contents = (mock.requests[1]!.body as { contents: unknown[] }).contents;
    expect(contents[1]).toEqual({
      role: 'model',
      parts: [
        {
          functionCall: { name: 'get_weather', args: { city: 'Paris' } },
          thoughtSignature: 'sig-gemini-3-abc==',
        },
      ],
    });
    expect(contents[2]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { name: 'get_weather', response: { temp_c: 21 } } }],
    });
  });

  it('streams through the Router', async () => {
    mock.setBehavior('/gr', { content: 'a b c' });
    const r = router();
    const chunks: ChatCompletionChunk[] = [];
    const iterable = (await r.acompletion({
      model: 'smart',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    })) as AsyncIterable<ChatCompletionChunk>;
    for await (const c of iterable) chunks.push(c);
    await r.close();
    expect(mock.requests[0]?.path).toBe(
      '/gr/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse',
    );
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('a b c');
  });

  it('embeds through the Router', async () => {
    const r = router('gemini/text-embedding-004');
    const res = await r.aembedding({ model: 'smart', input: 'hello' });
    await r.close();
    expect(mock.requests[0]?.path).toBe('/gr/v1beta/models/text-embedding-004:batchEmbedContents');
    expect(res.data).toHaveLength(1);
  });
});
