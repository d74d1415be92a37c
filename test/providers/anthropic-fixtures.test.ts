import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChatCompletionChunk, ServiceUnavailableError } from '../../src/index.js';
import { anthropicAdapter } from '../../src/providers/anthropic/index.js';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import { invokeStream } from '../../src/providers/shared/invoke-stream.js';
import type { CallOptions } from '../../src/providers/shared/provider-adapter.js';
import { useMock } from '../helpers.js';
import { anthropicTarget } from './anthropic-helpers.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/anthropic/${name}`, import.meta.url), 'utf8');
const mock = useMock();
const http = new HttpClient();
const options: CallOptions = { timeoutMs: 2000, streamTimeoutMs: 2000 };
const target = () => anthropicTarget(`${mock.url}/f`, { apiKey: 'sk-ant-fixture-0000' });
const request = { model: 'claude', messages: [{ role: 'user' as const, content: 'hi' }] };
const SSE = { 'content-type': 'text/event-stream' };

const replay = (name: string) =>
  mock.setBehavior('/f', { raw: { headers: { 'content-type': 'application/json' }, body: fixture(name) } });
const chat = () => invokeJson(http, anthropicAdapter, anthropicAdapter.chat, request, target(), options);
async function replayStream(
  name: string,
  chunks: ChatCompletionChunk[] = [],
): Promise<ChatCompletionChunk[]> {
  // split the transcript mid-event so the parser sees events cut across reads
  const text = fixture(name);
  mock.setBehavior('/f', { raw: { headers: SSE, body: [text.slice(0, 137), text.slice(137)] } });
  const iterable = await invokeStream(
    http,
    anthropicAdapter,
    anthropicAdapter.chatStream,
    request,
    target(),
    options,
  );
  for await (const c of iterable) chunks.push(c);
  return chunks;
}
const deltas = (chunks: ChatCompletionChunk[]) => chunks.flatMap((c) => c.choices.map((ch) => ch.delta));
const text = (chunks: ChatCompletionChunk[]) =>
  deltas(chunks)
    .map((d) => d.content ?? '')
    .join('');

afterAll(async () => {
  await http.close();
});

describe('Anthropic fixtures: messages', () => {
  it('normalizes the API reference message: text, citations, cache usage, service tier', () => {
    const res = anthropicAdapter.chat.parse(JSON.parse(fixture('message.json')), target(), request);
    expect(res).toMatchObject({
      id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
      object: 'chat.completion',
      model: 'claude-opus-5',
      system_fingerprint: null,
      service_tier: 'standard',
      usage: {
        prompt_tokens: 2095 + 2051 + 2051,
        completion_tokens: 503,
        total_tokens: 2095 + 2051 + 2051 + 503,
        prompt_tokens_details: { cached_tokens: 2051, cache_creation_tokens: 2051 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    expect(res.choices).toEqual([
      {
        index: 0,
        finish_reason: 'stop',
        message: {
          role: 'assistant',
          content: 'Hi! My name is Claude.',
          tool_calls: null,
          function_call: null,
          provider_specific_fields: {
            citations: [expect.objectContaining({ cited_text: 'The grass is green. The sky is blue.' })],
            stop_details: expect.objectContaining({ type: 'refusal', category: 'cyber' }),
            container: expect.objectContaining({ id: 'container_011CpZohnwH4vuy7gazohgSP' }),
          },
        },
      },
    ]);
  });

  it('normalizes the extended-thinking tool use message, signature included', async () => {
    replay('message-thinking-tool-use.json');
    const res = await chat();
    expect(res.choices[0]?.finish_reason).toBe('tool_calls');
    expect(res.choices[0]?.message).toEqual({
      role: 'assistant',
      content: 'I can help you get the current weather information for Paris. Let me check that for you',
      tool_calls: [
        {
          index: 0,
          id: 'toolu_01CswdEQBMshySk6Y9DFKrfq',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
        },
      ],
      function_call: null,
      reasoning_content:
        'The user wants to know the current weather in Paris. I have access to a function `get_weather`...',
      thinking_blocks: [
        {
          type: 'thinking',
          thinking:
            'The user wants to know the current weather in Paris. I have access to a function `get_weather`...',
          signature:
            'BDaL4VrbR2Oj0hO4XpJxT28J5TILnCrrUXoKiiNBZW9P+nr8XSj1zuZzAl4egiCCpQNvfyUuFFJP5CncdYZEQPPmLxYsNrcs....',
        },
      ],
    });
    expect(res.usage).toEqual({ prompt_tokens: 408, completion_tokens: 145, total_tokens: 553 });
  });

  it('keeps a redacted_thinking block beside the signed thinking block', async () => {
    replay('message-redacted-thinking.json');
    const res = await chat();
    expect(res.choices[0]?.message.thinking_blocks).toEqual([
      {
        type: 'thinking',
        thinking: 'Let me analyze this step by step...',
        signature: 'WaUjzkypQ2mUEVM36O2TxuC06KN8xyfbJwyem2dw3URve/op91XWHOEBLLqIOMfFG/UvLEczmEsUjavL....',
      },
      {
        type: 'redacted_thinking',
        data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP...',
      },
    ]);
    expect(res.choices[0]?.message.content).toBe('Based on my analysis...');
  });
});

describe('Anthropic fixtures: streams', () => {
  it('replays the basic stream, ignoring the ping, into the exact chunks', async () => {
    const chunks = await replayStream('stream-basic.sse');
    const base = {
      id: 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY',
      object: 'chat.completion.chunk',
      model: 'claude-opus-4-20250514',
    };
    const choice = (delta: object, finish_reason: string | null = null) => ({
      ...base,
      created: expect.any(Number),
      choices: [{ index: 0, delta, finish_reason }],
    });
    expect(chunks).toEqual([
      choice({ role: 'assistant', content: '' }),
      choice({ content: 'Hello' }),
      choice({ content: '!' }),
      choice({}, 'stop'),
      {
        ...base,
        created: expect.any(Number),
        choices: [],
        usage: { prompt_tokens: 25, completion_tokens: 15, total_tokens: 40 },
      },
    ]);
  });

  it('replays the tool use stream: text, then the tool call by position with its argument pieces', async () => {
    const chunks = await replayStream('stream-tool-use.sse');
    expect(text(chunks)).toBe("Okay, let's check the weather for San Francisco, CA:");
    const calls = deltas(chunks).flatMap((d) => d.tool_calls ?? []);
    expect(calls[0]).toEqual({
      index: 0,
      id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    expect(calls.every((c) => c.index === 0)).toBe(true);
    expect(JSON.parse(calls.map((c) => c.function?.arguments ?? '').join(''))).toEqual({
      location: 'San Francisco, CA',
      unit: 'fahrenheit',
    });
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 472, completion_tokens: 89, total_tokens: 561 });
  });

  it('replays the extended thinking stream: reasoning pieces with thinking_blocks, then the signature', async () => {
    const chunks = await replayStream('stream-thinking.sse');
    const d = deltas(chunks);
    const reasoning = d.map((x) => x.reasoning_content ?? '').join('');
    expect(reasoning).toBe(
      'Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3\n3. 27 * 400 = 10,800' +
        '\n4. 27 * 50 = 1,350\n5. 27 * 3 = 81\n6. 10,800 + 1,350 + 81 = 12,231',
    );
    expect(d[1]).toEqual({
      reasoning_content: 'Let me solve this step by step:\n\n1. First break down 27 * 453',
      thinking_blocks: [
        { type: 'thinking', thinking: 'Let me solve this step by step:\n\n1. First break down 27 * 453' },
      ],
    });
    expect(d).toContainEqual({
      thinking_blocks: [
        {
          type: 'thinking',
          thinking: '',
          signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds...',
        },
      ],
    });
    expect(text(chunks)).toBe('27 * 453 = 12,231');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('ignores ping events between and inside content blocks', async () => {
    const ev = (data: object) =>
      `event: ${(data as { type: string }).type}\ndata: ${JSON.stringify(data)}\n\n`;
    const ping = ev({ type: 'ping' });
    const body = [
      ev({
        type: 'message_start',
        message: { id: 'msg_p', model: 'claude-x', usage: { input_tokens: 5, output_tokens: 1 } },
      }),
      ping,
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } }),
      ping,
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } }),
      ev({ type: 'content_block_stop', index: 0 }),
      ping,
      ev({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
      ping,
      ev({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } }),
      ev({ type: 'content_block_stop', index: 1 }),
      ping,
      ev({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } }),
      ping,
      ev({ type: 'message_stop' }),
    ];
    mock.setBehavior('/f', { raw: { headers: SSE, body } });
    const chunks: ChatCompletionChunk[] = [];
    const iterable = await invokeStream(
      http,
      anthropicAdapter,
      anthropicAdapter.chatStream,
      request,
      target(),
      options,
    );
    for await (const c of iterable) chunks.push(c);
    expect(chunks.map((c) => (c.choices.length ? c.choices[0] : c.usage))).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null },
      {
        index: 0,
        delta: { reasoning_content: 'hmm', thinking_blocks: [{ type: 'thinking', thinking: 'hmm' }] },
        finish_reason: null,
      },
      {
        index: 0,
        delta: { thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'sig' }] },
        finish_reason: null,
      },
      { index: 0, delta: { content: 'Hi' }, finish_reason: null },
      { index: 0, delta: {}, finish_reason: 'stop' },
      { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
    ]);
  });

  it('throws ServiceUnavailableError for an overloaded_error event after HTTP 200, after the text before it', async () => {
    const chunks: ChatCompletionChunk[] = [];
    const error = await replayStream('stream-error-after-200.sse', chunks).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as Error).message).toContain('Overloaded');
    expect(text(chunks)).toBe('Hello');
  });
});
