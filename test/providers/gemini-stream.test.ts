import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APIConnectionError, InternalServerError } from '../../src/index.js';
import { geminiAdapter } from '../../src/providers/gemini/index.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import { type MockProvider, startMockProvider } from '../../src/testing/index.js';
import { API_KEY, closeHttp, geminiTarget, http, options, stream, streamedText } from './gemini-helpers.js';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
beforeEach(() => mock.reset());
afterAll(async () => {
  await closeHttp();
  await mock.close();
});

const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('Gemini (AI Studio) streaming', () => {
  it('posts to :streamGenerateContent?alt=sse and yields role, text, finish and a usage chunk', async () => {
    mock.setBehavior('/g', {
      content: 'one two three four five',
      usage: { prompt_tokens: 4, completion_tokens: 5 },
    });
    const chunks = await stream(geminiTarget(mock));
    expect(mock.requests[0]?.path).toBe('/g/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(mock.requests[0]?.headers['x-goog-api-key']).toBe(API_KEY);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'gemini-2.5-flash')).toBe(
      true,
    );
    expect(streamedText(chunks)).toBe('one two three four five');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 },
    });
  });

  it('streams a function call as an opening tool_calls delta, then its arguments', async () => {
    mock.setBehavior('/g', { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
    const chunks = await stream(geminiTarget(mock), { tools: [WEATHER_TOOL] });
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls).toEqual([
      { index: 0, id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":"Paris"}' } },
    ]);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('throws APIConnectionError when the stream ends before any finishReason', async () => {
    mock.setBehavior('/g', { stream: { omitTerminal: true } });
    const error = await stream(geminiTarget(mock)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain(
      'stream ended before it finished (a candidate without finishReason)',
    );
  });

  it('throws the typed error for an error object sent after HTTP 200', async () => {
    mock.setBehavior('/g', { stream: { errorAfter: 1 } });
    await expect(stream(geminiTarget(mock))).rejects.toBeInstanceOf(InternalServerError);
  });

  it('throws APIConnectionError when the connection is cut mid-stream', async () => {
    mock.setBehavior('/g', { stream: { cutAfter: 1 } });
    await expect(stream(geminiTarget(mock))).rejects.toBeInstanceOf(APIConnectionError);
  });
});

describe('Gemini (AI Studio) embeddings', () => {
  it('posts every input to :batchEmbedContents and returns the OpenAI list', async () => {
    mock.setBehavior('/g', { dimensions: 3 });
    const target = geminiTarget(mock, 'g', {}, 'text-embedding-004');
    const res = await invokeJson(
      http,
      geminiAdapter,
      geminiAdapter.embedding!,
      { model: 'e', input: ['a', 'b'], dimensions: 3 },
      target,
      options,
    );
    expect(mock.requests[0]?.path).toBe('/g/v1beta/models/text-embedding-004:batchEmbedContents');
    expect(mock.requests[0]?.body).toEqual({
      requests: [
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] }, outputDimensionality: 3 },
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'b' }] }, outputDimensionality: 3 },
      ],
    });
    expect(res).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.01, 0.02, 0.03] },
        { object: 'embedding', index: 1, embedding: [0.02, 0.04, 0.06] },
      ],
      model: 'text-embedding-004',
      usage: { prompt_tokens: 0, total_tokens: 0 },
    });
  });
});
