import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  type ChatCompletionChunk,
  ContextWindowExceededError,
  InternalServerError,
  RateLimitError,
  ServiceUnavailableError,
} from '../../src/index.js';
import { bedrockAdapter } from '../../src/providers/bedrock/index.js';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { invokeStream } from '../../src/providers/shared/invoke-stream.js';
import type { CallOptions, ProviderTarget } from '../../src/providers/shared/provider-adapter.js';
import { type MockBehavior, type MockProvider, startMockProvider } from '../../src/testing/index.js';
import {
  bedrockTarget,
  binaryFixture,
  CLAUDE,
  eventFrame,
  split,
  transcriptBytes,
} from '../fixtures/bedrock/load.js';

let mock: MockProvider;
const http = new HttpClient();
const options: CallOptions = { timeoutMs: 2000, streamTimeoutMs: 2000 };
const claude = () => bedrockTarget(`${mock.url}/st`);
const nova = () => bedrockTarget(`${mock.url}/st`, 'amazon.nova-pro-v1:0');

async function stream(target: ProviderTarget = claude(), request: Record<string, unknown> = {}) {
  const chunks: ChatCompletionChunk[] = [];
  const iterable = await invokeStream(
    http,
    bedrockAdapter,
    bedrockAdapter.chatStream,
    { model: 'group', messages: [{ role: 'user', content: 'hi' }], ...request },
    target,
    options,
  );
  for await (const chunk of iterable) chunks.push(chunk);
  return chunks;
}

/** Replays raw event-stream bytes, in the given pieces, as the answer. */
function replay(body: Uint8Array[]): MockBehavior {
  return { raw: { headers: { 'content-type': 'application/vnd.amazon.eventstream' }, body } };
}

const deltas = (chunks: ChatCompletionChunk[]) => chunks.flatMap((c) => c.choices.map((ch) => ch.delta));
const text = (chunks: ChatCompletionChunk[], key: 'content' | 'reasoning_content') =>
  deltas(chunks)
    .map((d) => d[key] ?? '')
    .join('');

beforeAll(async () => {
  mock = await startMockProvider();
});
beforeEach(() => mock.reset());
afterAll(async () => {
  await http.close();
  await mock.close();
});

describe('Bedrock ConverseStream over HTTP', () => {
  it('posts to /converse-stream, asking for an event stream, signed', async () => {
    await stream();
    const [request] = mock.requests;
    expect(request?.path).toBe('/st/model/anthropic.claude-3-7-sonnet-20250219-v1%3A0/converse-stream');
    expect(request?.headers.accept).toBe('application/vnd.amazon.eventstream');
    expect(request?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\//);
    expect(request?.body).toEqual({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] });
  });

  it('yields a role chunk, text pieces, the finish reason, then usage, under one id', async () => {
    mock.setBehavior('/st', {
      content: 'one two three four',
      usage: { prompt_tokens: 5, completion_tokens: 4 },
    });
    const chunks = await stream();
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    expect(text(chunks, 'content')).toBe('one two three four');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 },
    });
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === CLAUDE)).toBe(true);
  });

  it('streams tool calls as a start chunk then argument pieces', async () => {
    mock.setBehavior('/st', {
      toolCalls: [{ id: 'tooluse_9', name: 'weather', arguments: { city: 'Paris' } }],
    });
    const chunks = await stream();
    const calls = deltas(chunks).flatMap((d) => d.tool_calls ?? []);
    expect(calls[0]).toEqual({
      index: 0,
      id: 'tooluse_9',
      type: 'function',
      function: { name: 'weather', arguments: '' },
    });
    expect(
      calls
        .slice(1)
        .map((c) => c.function?.arguments)
        .join(''),
    ).toBe('{"city":"Paris"}');
    expect(calls.slice(1).every((c) => c.index === 0 && c.id === undefined)).toBe(true);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('streams Claude reasoning text, its signature and redacted blocks as thinking_blocks', async () => {
    mock.setBehavior('/st', {
      content: 'done',
      reasoning: 'first I think about it',
      signature: 'c2ln',
      redactedReasoning: 'cmVkYWN0ZWQ=',
    });
    const chunks = await stream();
    expect(text(chunks, 'reasoning_content')).toBe('first I think about it');
    const blocks = deltas(chunks).flatMap((d) => d.thinking_blocks ?? []);
    expect(blocks).toEqual([
      { type: 'thinking', thinking: 'first I think ' },
      { type: 'thinking', thinking: 'about it' },
      { type: 'thinking', thinking: '', signature: 'c2ln' },
      { type: 'redacted_thinking', data: 'cmVkYWN0ZWQ=' },
    ]);
  });

  it('streams reasoning_content without thinking_blocks for other models', async () => {
    mock.setBehavior('/st', { content: 'done', reasoning: 'hmm' });
    const chunks = await stream(nova());
    expect(text(chunks, 'reasoning_content')).toBe('hmm');
    expect(deltas(chunks).some((d) => d.thinking_blocks !== undefined)).toBe(false);
  });

  it('throws the mapped class for an exception frame after HTTP 200', async () => {
    mock.setBehavior('/st', {
      stream: { errorAfter: 2 },
      error: { code: 'throttlingException', message: 'slow down' },
    });
    const error = await stream().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toContain('slow down');
  });

  it('throws InternalServerError for a modelStreamErrorException', async () => {
    mock.setBehavior('/st', { stream: { errorAfter: 1 } });
    await expect(stream()).rejects.toBeInstanceOf(InternalServerError);
  });

  it('throws ServiceUnavailableError for a serviceUnavailableException', async () => {
    mock.setBehavior('/st', { stream: { errorAfter: 1 }, error: { code: 'serviceUnavailableException' } });
    await expect(stream()).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('throws ContextWindowExceededError for a validationException about input length', async () => {
    mock.setBehavior('/st', {
      stream: { errorAfter: 0 },
      error: { code: 'validationException', message: 'Input is too long for requested model.' },
    });
    await expect(stream()).rejects.toBeInstanceOf(ContextWindowExceededError);
  });

  it('throws APIConnectionError when the stream ends without messageStop', async () => {
    mock.setBehavior('/st', { stream: { omitTerminal: true } });
    const error = await stream().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain('stream ended before it finished (no messageStop)');
  });

  it('throws APIConnectionError when the connection is cut mid-stream', async () => {
    mock.setBehavior('/st', { stream: { cutAfter: 2 } });
    await expect(stream()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('throws APIConnectionError when the body ends inside a frame', async () => {
    const bytes = transcriptBytes('converse-stream-reasoning.jsonl');
    mock.setBehavior('/st', replay([bytes.subarray(0, bytes.length - 10)]));
    await expect(stream()).rejects.toBeInstanceOf(APIConnectionError);
  });
});

describe('Bedrock ConverseStream fixtures', () => {
  it.each([1, 7, 64])('decodes frames split across TCP chunks of %i bytes', async (size) => {
    const whole = await (async () => {
      mock.setBehavior('/st', replay([transcriptBytes('converse-stream-reasoning.jsonl')]));
      return stream();
    })();
    mock.setBehavior('/st', replay(split(transcriptBytes('converse-stream-reasoning.jsonl'), size)));
    const pieces = await stream();
    expect(deltas(pieces)).toEqual(deltas(whole));
    expect(text(pieces, 'content')).toBe('17 × 23 = **391**.');
  });

  it('replays Claude reasoning with a signature', async () => {
    mock.setBehavior('/st', replay([transcriptBytes('converse-stream-reasoning.jsonl')]));
    const chunks = await stream();
    expect(text(chunks, 'reasoning_content')).toBe(
      'The user asks for 17 * 23. 17*20 = 340, 17*3 = 51, total 391.',
    );
    expect(
      deltas(chunks)
        .flatMap((d) => d.thinking_blocks ?? [])
        .at(-1),
    ).toEqual({
      type: 'thinking',
      thinking: '',
      signature: 'EqoBCkYIBRgCIkB2Zm9yZWNhc3QtZmV0Y2gtc2lnbmF0dXJlLWZpeHR1cmUtb25seQ==',
    });
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 44, completion_tokens: 71, total_tokens: 115 });
  });

  it('replays two streamed tool calls with their own indexes', async () => {
    mock.setBehavior('/st', replay([transcriptBytes('converse-stream-tool-use.jsonl')]));
    const chunks = await stream();
    const calls = deltas(chunks).flatMap((d) => d.tool_calls ?? []);
    const args = (index: number) =>
      calls
        .filter((c) => c.index === index)
        .map((c) => c.function?.arguments)
        .join('');
    expect(calls.filter((c) => c.id).map((c) => [c.index, c.id, c.function?.name])).toEqual([
      [0, 'tooluse_Wm2nQZ3oTcuSx8f1AbCdEf', 'get_weather'],
      [1, 'tooluse_Xy7pLm4kRb2vN9q0GhIjKl', 'get_time'],
    ]);
    expect(JSON.parse(args(0))).toEqual({ city: 'Paris', unit: 'celsius' });
    expect(JSON.parse(args(1))).toEqual({ zone: 'Europe/Paris' });
    expect(text(chunks, 'content')).toBe('Let me check the weather in Paris.');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('replays a redacted reasoning delta', async () => {
    mock.setBehavior('/st', replay([transcriptBytes('converse-stream-redacted.jsonl')]));
    const blocks = deltas(await stream()).flatMap((d) => d.thinking_blocks ?? []);
    expect(blocks).toEqual([
      {
        type: 'redacted_thinking',
        data: 'RXZ3QkNrWUlCUmdDSWtBdHJiM0Q4c0lvcVl5dUJJU3VuVG9uTWpXSGhrRnlHcHpjMlBndjBlOW9xcWwwUmF2ZTlvWk1RYg==',
      },
    ]);
  });

  it('decodes bytes from an independent encoder, with Bedrock’s padding field', async () => {
    mock.setBehavior('/st', replay(split(binaryFixture('converse-stream-text.eventstream.b64'), 5)));
    const chunks = await stream();
    expect(text(chunks, 'content')).toBe('Bonjour à tous, ça va ?');
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 9, completion_tokens: 11, total_tokens: 20 });
  });

  it('throws RateLimitError for a recorded throttlingException frame after content', async () => {
    mock.setBehavior('/st', replay([binaryFixture('converse-stream-throttled.eventstream.b64')]));
    const error = await stream().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toContain('Too many tokens, please wait before trying again.');
  });

  it('adds the role to the first chunk when messageStart is missing', async () => {
    const frames = [
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'hi' } }),
      eventFrame('messageStop', { stopReason: 'end_turn' }),
    ];
    mock.setBehavior('/st', replay(frames));
    const chunks = await stream();
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: 'hi' });
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });
});
