import { afterAll, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  type ChatCompletionChunk,
  ContextWindowExceededError,
  InternalServerError,
  RateLimitError,
  TimeoutError,
} from '../../src/index.js';
import { openaiAdapter } from '../../src/providers/openai/adapter.js';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import { invokeStream } from '../../src/providers/shared/invoke-stream.js';
import type { CallOptions, ProviderTarget } from '../../src/providers/shared/provider-adapter.js';
import { useMock } from '../helpers.js';

const mock = useMock();
const http = new HttpClient();
const options: CallOptions = { timeoutMs: 2000, streamTimeoutMs: 2000 };
const target = (prefix = 'p'): ProviderTarget => ({
  provider: 'openai',
  model: 'gpt-4o',
  modelId: 'dep',
  env: process.env,
  secrets: [],
  apiBase: `${mock.url}/${prefix}/v1`,
  apiKey: 'sk-test-key-123456',
  apiVersion: undefined,
  params: { model: 'openai/gpt-4o', temperature: 0.2 },
});
const chat = (t = target(), req: Record<string, unknown> = {}) =>
  invokeJson(
    http,
    openaiAdapter,
    openaiAdapter.chat,
    { model: 'group', messages: [{ role: 'user', content: 'hi' }], ...req },
    t,
    options,
  );
const stream = async (t = target(), o = options) => {
  const chunks: ChatCompletionChunk[] = [];
  const iterable = await invokeStream(
    http,
    openaiAdapter,
    openaiAdapter.chatStream,
    { model: 'group', messages: [{ role: 'user', content: 'hi' }] },
    t,
    o,
  );
  for await (const c of iterable) chunks.push(c);
  return chunks;
};

afterAll(async () => {
  await http.close();
});

describe('OpenAI-compatible chat', () => {
  it('posts to {api_base}/chat/completions with a Bearer key and the provider model name', async () => {
    await chat();
    const [request] = mock.requests;
    expect(request?.path).toBe('/p/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test-key-123456');
    expect(request?.body).toEqual({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0.2,
    });
  });

  it('lets the request override a svc_params request default', async () => {
    await chat(target(), { temperature: 0.9 });
    expect(mock.requests[0]?.body).toMatchObject({ temperature: 0.9 });
  });

  it('returns the contract envelope', async () => {
    mock.setBehavior('/p', {
      content: 'Hi there',
      reasoning: 'thinking...',
      usage: { prompt_tokens: 3, completion_tokens: 2 },
    });
    const res = await chat();
    expect(res).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-4o',
      system_fingerprint: 'fp_mock',
      service_tier: 'default',
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: {
            role: 'assistant',
            content: 'Hi there',
            tool_calls: null,
            function_call: null,
            reasoning_content: 'thinking...',
          },
        },
      ],
    });
    expect(typeof res.created).toBe('number');
  });

  it('returns tool calls with index, id, type and JSON arguments', async () => {
    mock.setBehavior('/p', {
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }],
    });
    const res = await chat();
    expect(res.choices[0]?.finish_reason).toBe('tool_calls');
    expect(res.choices[0]?.message.tool_calls).toEqual([
      {
        index: 0,
        id: 'call_1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
    ]);
  });

  it('maps a 429 with retry-after to RateLimitError with retryAfterMs', async () => {
    mock.setBehavior('/p', { status: 429, headers: { 'retry-after': '3' } });
    const error = await chat().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3000);
    expect((error as RateLimitError).modelId).toBe('dep');
  });

  it('maps context_length_exceeded from the real error body', async () => {
    mock.setBehavior('/p', { status: 400, error: { code: 'context_length_exceeded', message: 'too long' } });
    await expect(chat()).rejects.toBeInstanceOf(ContextWindowExceededError);
  });

  it('maps a refused connection to APIConnectionError', async () => {
    const closed = { ...target(), apiBase: 'http://127.0.0.1:1/v1' };
    await expect(chat(closed)).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('maps a reset connection to APIConnectionError', async () => {
    mock.setBehavior('/p', { fault: 'reset' });
    await expect(chat()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('maps no answer within timeout to TimeoutError, on time', async () => {
    mock.setBehavior('/p', { fault: 'hang' });
    const started = Date.now();
    const error = await invokeJson(
      http,
      openaiAdapter,
      openaiAdapter.chat,
      { model: 'g', messages: [] },
      target(),
      { timeoutMs: 100, streamTimeoutMs: 100 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(600);
  });

  it('passes a caller abort through as is', async () => {
    mock.setBehavior('/p', { delayMs: 500 });
    const controller = new AbortController();
    const pending = invokeJson(
      http,
      openaiAdapter,
      openaiAdapter.chat,
      { model: 'g', messages: [] },
      target(),
      { ...options, signal: controller.signal },
    );
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
  });

  it('keeps the key out of error messages even when the provider echoes it', async () => {
    mock.setBehavior('/p', {
      status: 401,
      error: { message: 'Incorrect API key provided: sk-test-key-123456' },
    });
    const error = (await chat().catch((e: unknown) => e)) as Error;
    expect(error.message).not.toContain('sk-test-key-123456');
  });
});

describe('OpenAI-compatible streaming', () => {
  it('asks for stream and the usage chunk', async () => {
    await stream();
    expect(mock.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('yields chat.completion.chunk objects carrying content, reasoning and usage', async () => {
    mock.setBehavior('/p', { content: 'one two three four', reasoning: 'hmm' });
    const chunks = await stream();
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('one two three four');
    expect(chunks.map((c) => c.choices[0]?.delta.reasoning_content ?? '').join('')).toBe('hmm');
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('throws APIConnectionError when the stream ends cleanly before any finish_reason', async () => {
    mock.setBehavior('/p', { stream: { endAfter: 2 } });
    const error = await stream().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain('stream ended before it finished (no finish_reason)');
  });

  it('answers a request it cannot build with a rejected promise, never a throw, and sends nothing', async () => {
    const opened = invokeStream(
      http,
      openaiAdapter,
      openaiAdapter.chatStream,
      // a BigInt has no JSON form
      { model: 'group', messages: [{ role: 'user', content: 'hi' }], temperature: 1n } as never,
      target(),
      options,
    );
    expect(opened).toBeInstanceOf(Promise);
    await expect(opened).rejects.toThrow(/temperature/);
    expect(mock.requests).toHaveLength(0);
  });

  it('answers a request whose asynchronous build fails with that rejection, and sends nothing', async () => {
    const failing = {
      ...openaiAdapter.chatStream,
      build: () => Promise.reject(new Error('no credentials for the signer')),
    };
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const opened = invokeStream(
      http,
      openaiAdapter,
      failing,
      { model: 'group', messages },
      target(),
      options,
    );
    await expect(opened).rejects.toThrow('no credentials for the signer');
    expect(mock.requests).toHaveLength(0);
  });

  it('throws APIConnectionError when the connection is cut mid-stream', async () => {
    mock.setBehavior('/p', { stream: { cutAfter: 2 } });
    await expect(stream()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('throws TimeoutError when the stream stalls past stream_timeout', async () => {
    mock.setBehavior('/p', { stream: { stallAfter: 1 } });
    const started = Date.now();
    const error = await stream(target(), { timeoutMs: 2000, streamTimeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain('stream_timeout');
    expect(Date.now() - started).toBeLessThan(600);
  });

  it('keeps a slow but steady stream alive past stream_timeout in total', async () => {
    mock.setBehavior('/p', { content: 'a b c d e f g h i j k l', stream: { chunkDelayMs: 40 } });
    const chunks = await stream(target(), { timeoutMs: 2000, streamTimeoutMs: 150 });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('a b c d e f g h i j k l');
  });

  it('throws the mapped class of an error event in the stream', async () => {
    mock.setBehavior('/p', { stream: { errorAfter: 1 } });
    const error = await stream().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toContain('Mock stream failure');
  });
});

describe('OpenAI-compatible embeddings, text completions and images', () => {
  it('posts embeddings to {api_base}/embeddings', async () => {
    const res = await invokeJson(
      http,
      openaiAdapter,
      openaiAdapter.embedding!,
      { model: 'g', input: ['a', 'b'] },
      target(),
      options,
    );
    expect(mock.requests[0]?.path).toBe('/p/v1/embeddings');
    expect(mock.requests[0]?.body).toEqual({ model: 'gpt-4o', input: ['a', 'b'] });
    expect(res.object).toBe('list');
    expect(res.data).toHaveLength(2);
  });

  it('posts text completions to {api_base}/completions', async () => {
    const res = await invokeJson(
      http,
      openaiAdapter,
      openaiAdapter.textCompletion!,
      { model: 'g', prompt: 'Say hi' },
      target(),
      options,
    );
    expect(mock.requests[0]?.path).toBe('/p/v1/completions');
    expect(res.object).toBe('text_completion');
    expect(res.choices[0]?.text).toBe('Hello from the mock provider.');
  });

  it('posts image generation to {api_base}/images/generations', async () => {
    const res = await invokeJson(
      http,
      openaiAdapter,
      openaiAdapter.imageGeneration!,
      { model: 'g', prompt: 'a cat', n: 2 },
      target(),
      options,
    );
    expect(mock.requests[0]?.path).toBe('/p/v1/images/generations');
    expect(res.data).toHaveLength(2);
  });
});
