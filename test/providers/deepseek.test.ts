import { afterAll, describe, expect, it } from 'vitest';
import { AuthenticationError, ContextWindowExceededError, RateLimitError, Router } from '../../src/index.js';
import { deepseekAdapter } from '../../src/providers/deepseek/index.js';
import { useMock } from '../helpers.js';
import {
  chat,
  closeHttp,
  fixture,
  joined,
  jsonRaw,
  stream,
  TOOLS,
  targetOn,
  USER,
} from './openai-family-helpers.js';

const mock = useMock();
const target = (params: Record<string, unknown> = {}) =>
  targetOn(mock, deepseekAdapter, 'deepseek-reasoner', '/ds', params);

afterAll(async () => {
  await closeHttp();
});

describe('DeepSeek chat prefix completion (an assistant prefix, `prefix: true`)', () => {
  const options = { timeoutMs: 1000, streamTimeoutMs: 1000 };
  const prefixed = {
    model: 'deepseek-chat',
    messages: [...USER, { role: 'assistant' as const, content: 'Argentina', prefix: true }],
  };
  const onApi = (apiBase: string) => ({ ...target(), apiBase });

  it('goes to the beta API, the only one that serves it, from DeepSeek’s own api_base', async () => {
    for (const apiBase of ['https://api.deepseek.com', 'https://api.deepseek.com/v1']) {
      const wire = await deepseekAdapter.chatStream.build(prefixed, onApi(apiBase), options);
      expect(wire.url).toBe('https://api.deepseek.com/beta/chat/completions');
      expect(JSON.parse(String(wire.body)).messages.at(-1)).toEqual(prefixed.messages[1]);
    }
  });

  it('keeps every other chat, and an api_base elsewhere, on the given path', async () => {
    const plain = await deepseekAdapter.chat.build(
      { model: 'm', messages: USER },
      onApi('https://api.deepseek.com'),
      options,
    );
    expect(plain.url).toBe('https://api.deepseek.com/chat/completions');
    const proxied = await deepseekAdapter.chat.build(
      prefixed,
      onApi('https://llm.example.com/deepseek'),
      options,
    );
    expect(proxied.url).toBe('https://llm.example.com/deepseek/chat/completions');
  });
});

describe('DeepSeek requests', () => {
  it('defaults to https://api.deepseek.com with the key from DEEPSEEK_API_KEY', () => {
    expect(deepseekAdapter.defaults).toEqual({
      apiBase: 'https://api.deepseek.com',
      apiKeyEnv: 'DEEPSEEK_API_KEY',
    });
  });

  it('posts the chat to {api_base}/chat/completions with a Bearer key and the DeepSeek model name', async () => {
    await chat(deepseekAdapter, target(), { tools: TOOLS, temperature: 0.3 });
    const [request] = mock.requests;
    expect(request?.path).toBe('/ds/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test-key-123456');
    expect(request?.body).toEqual({
      model: 'deepseek-reasoner',
      messages: USER,
      tools: TOOLS,
      temperature: 0.3,
    });
  });

  it('returns the contract envelope with reasoning_content and tool calls', async () => {
    mock.setBehavior('/ds', {
      reasoning: 'Need the weather tool.',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Hangzhou' } }],
      usage: { prompt_tokens: 20, completion_tokens: 12 },
    });
    const res = await chat(deepseekAdapter, target(), { tools: TOOLS });
    expect(res).toMatchObject({
      object: 'chat.completion',
      model: 'deepseek-reasoner',
      usage: { prompt_tokens: 20, completion_tokens: 12, total_tokens: 32 },
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            function_call: null,
            reasoning_content: 'Need the weather tool.',
            tool_calls: [
              {
                index: 0,
                id: 'call_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Hangzhou"}' },
              },
            ],
          },
        },
      ],
    });
    expect(res.choices[0]?.message.thinking_blocks).toBeUndefined();
  });

  it('streams with include_usage and yields role, reasoning, tool-call header, arguments, finish and usage', async () => {
    mock.setBehavior('/ds', {
      reasoning: 'Need the weather tool.',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Hangzhou' } }],
      openaiVariant: { keepAlive: 'keep-alive' },
    });
    const chunks = await stream(deepseekAdapter, target(), { tools: TOOLS });
    expect(mock.requests[0]?.path).toBe('/ds/chat/completions');
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer sk-test-key-123456');
    expect(mock.requests[0]?.body).toEqual({
      model: 'deepseek-reasoner',
      messages: USER,
      tools: TOOLS,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(joined(chunks, 'reasoning_content')).toBe('Need the weather tool.');
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls).toEqual([
      { index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":"Hangzhou"}' } },
    ]);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 10 } });
  });
});

describe('DeepSeek errors', () => {
  it('maps 402 Insufficient Balance to RateLimitError so the router moves on', async () => {
    mock.setBehavior('/ds', jsonRaw('deepseek', 'error-402-insufficient-balance.json', 402));
    const error = await chat(deepseekAdapter, target()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toContain('Insufficient Balance');
  });

  it('maps 401 to AuthenticationError', async () => {
    mock.setBehavior('/ds', jsonRaw('deepseek', 'error-401-authentication.json', 401));
    await expect(chat(deepseekAdapter, target())).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('maps the context-length message to ContextWindowExceededError', async () => {
    mock.setBehavior('/ds', jsonRaw('deepseek', 'error-400-context-length.json', 400));
    await expect(chat(deepseekAdapter, target())).rejects.toBeInstanceOf(ContextWindowExceededError);
  });

  it('keeps the fixture error text intact apart from the key', () => {
    const failure = deepseekAdapter.readError(401, fixture('deepseek', 'error-401-authentication.json'), {});
    expect(failure).toMatchObject({ status: 401, message: expect.stringContaining('Authentication Fails') });
  });
});

describe('DeepSeek through the Router', () => {
  it('routes deepseek/ deployments to the DeepSeek adapter and returns reasoning_content', async () => {
    mock.setBehavior('/ds', { content: 'Paris', reasoning: 'Capital of France.' });
    const r = new Router([
      {
        model_name: 'ds',
        svc_params: {
          model: 'deepseek/deepseek-reasoner',
          api_base: `${mock.url}/ds`,
          api_key: 'sk-ds-0000',
        },
      },
    ]);
    const res = await r.acompletion({ model: 'ds', messages: USER });
    await r.close();
    expect(res._hidden_params.custom_llm_provider).toBe('deepseek');
    expect(res.choices[0]?.message).toMatchObject({
      content: 'Paris',
      reasoning_content: 'Capital of France.',
    });
    expect(mock.requests[0]?.path).toBe('/ds/chat/completions');
  });
});
