import { afterAll, describe, expect, it } from 'vitest';
import { BadRequestError, type ChatMessage, InternalServerError } from '../../src/index.js';
import { openrouterAdapter } from '../../src/providers/openrouter/index.js';
import { useMock } from '../helpers.js';
import {
  chat,
  closeHttp,
  fixture,
  joined,
  sentMessages,
  sseRaw,
  stream,
  TOOLS,
  targetOn,
  USER,
} from './openai-family-helpers.js';

const mock = useMock();
const CLAUDE = 'anthropic/claude-sonnet-4';
const target = (model = CLAUDE, params: Record<string, unknown> = {}) =>
  targetOn(mock, openrouterAdapter, model, '/or/api/v1', params);
const SIGNATURE = 'EqQBCgIYAhIMsig==';

afterAll(async () => {
  await closeHttp();
});

describe('OpenRouter reasoning in answers', () => {
  const behavior = {
    content: 'It is sunny.',
    reasoning: 'Check the weather.',
    signature: SIGNATURE,
    openaiVariant: { reasoningFormat: 'openrouter' as const },
  };

  it('answers reasoning as reasoning_content and reasoning_details in provider_specific_fields', async () => {
    mock.setBehavior('/or', behavior);
    const message = (await chat(openrouterAdapter, target('openai/gpt-5'))).choices[0]?.message;
    expect(message?.reasoning_content).toBe('Check the weather.');
    expect(message?.provider_specific_fields?.reasoning_details).toEqual([
      {
        type: 'reasoning.text',
        text: 'Check the weather.',
        signature: SIGNATURE,
        format: 'unknown',
        index: 0,
      },
    ]);
    expect(message?.thinking_blocks).toBeUndefined();
  });

  it('derives thinking_blocks from signed and encrypted reasoning_details for anthropic/ models', async () => {
    mock.setBehavior('/or', { ...behavior, redactedReasoning: 'ErUBCkYIAxgCIkD...' });
    const message = (await chat(openrouterAdapter, target())).choices[0]?.message;
    expect(message?.thinking_blocks).toEqual([
      { type: 'thinking', thinking: 'Check the weather.', signature: SIGNATURE },
      { type: 'redacted_thinking', data: 'ErUBCkYIAxgCIkD...' },
    ]);
  });

  it('replays a recorded answer padded with keep-alive whitespace: tool call, reasoning, thinking block, usage', async () => {
    mock.setBehavior('/or', {
      raw: {
        headers: { 'content-type': 'application/json' },
        body: fixture('openrouter', 'chat-completion-claude-tool-call.body.txt'),
      },
    });
    const res = await chat(openrouterAdapter, target());
    const message = res.choices[0]?.message;
    expect(res).toMatchObject({
      id: 'gen-1773326261-pUI5KeUN113EFRmnGRdE',
      model: 'anthropic/claude-4-sonnet-20250522',
      system_fingerprint: null,
      usage: { prompt_tokens: 424, completion_tokens: 110, total_tokens: 534 },
    });
    expect(res.choices[0]?.finish_reason).toBe('tool_calls');
    expect(message?.tool_calls?.[0]).toEqual({
      index: 0,
      id: 'toolu_vrtx_015EeDRWGA7dLHZpVKzpowig',
      type: 'function',
      function: { name: 'weather', arguments: '{"location": "Florence, Italy"}' },
    });
    expect(message?.reasoning_content).toMatch(/^The user is asking for the weather in Florence/);
    expect(message?.thinking_blocks).toEqual([
      {
        type: 'thinking',
        thinking: message?.reasoning_content,
        signature: expect.stringMatching(/^Ep0DCkgI/),
      },
    ]);
    expect(message?.provider_specific_fields?.reasoning_details).toHaveLength(1);
  });
});

describe('OpenRouter streams', () => {
  it('replays a recorded stream: keep-alives skipped, reasoning, thinking-block deltas, tool call, usage', async () => {
    mock.setBehavior('/or', sseRaw('openrouter', 'stream-claude-tool-call.sse'));
    const chunks = await stream(openrouterAdapter, target());
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.slice(1).every((c) => c.choices.every((ch) => ch.delta.role === undefined))).toBe(true);
    expect(joined(chunks, 'reasoning_content')).toBe(
      'The user is asking for weather information for Florence, Italy.',
    );
    const blocks = chunks.flatMap((c) => c.choices[0]?.delta.thinking_blocks ?? []);
    expect(blocks).toEqual([
      { type: 'thinking', thinking: 'The user is asking for weather' },
      { type: 'thinking', thinking: ' information for Florence, Italy.' },
      { type: 'thinking', thinking: '', signature: expect.stringMatching(/^EqcDCkgI/) },
    ]);
    expect(chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])).toEqual([
      {
        index: 0,
        id: 'toolu_vrtx_01UHJryQUb53RxSkCgqC1gwD',
        type: 'function',
        function: { name: 'weather', arguments: '' },
      },
      { index: 0, function: { arguments: '{"locat' } },
      { index: 0, function: { arguments: 'ion": "Florence, Italy"}' } },
    ]);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 423, completion_tokens: 110 },
    });
  });

  it('keeps each reasoning_details piece in provider_specific_fields for the caller to send back', async () => {
    mock.setBehavior('/or', sseRaw('openrouter', 'stream-claude-tool-call.sse'));
    const chunks = await stream(openrouterAdapter, target());
    const pieces = chunks.flatMap(
      (c) => (c.choices[0]?.delta.provider_specific_fields?.reasoning_details as unknown[]) ?? [],
    );
    expect(pieces).toHaveLength(4);
  });

  it('streams the mock’s OpenRouter variant: exact request, reasoning, thinking blocks with the redacted one, tool call', async () => {
    mock.setBehavior('/or', {
      reasoning: 'Think it through.',
      signature: SIGNATURE,
      redactedReasoning: 'opaque==',
      toolCalls: [{ id: 'toolu_2', name: 'get_weather', arguments: { city: 'Rome' } }],
      openaiVariant: { reasoningFormat: 'openrouter', keepAlive: 'OPENROUTER PROCESSING' },
    });
    const t = target(CLAUDE, { openrouter_app_name: 'Example App' });
    const chunks = await stream(openrouterAdapter, t, { tools: TOOLS, reasoning_effort: 'high' });
    expect(mock.requests[0]?.path).toBe('/or/api/v1/chat/completions');
    expect(mock.requests[0]?.headers).toMatchObject({
      authorization: 'Bearer sk-test-key-123456',
      'x-title': 'Example App',
    });
    expect(mock.requests[0]?.body).toEqual({
      model: CLAUDE,
      messages: USER,
      tools: TOOLS,
      reasoning: { effort: 'high' },
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])).toEqual([
      { index: 0, id: 'toolu_2', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":"Rome"}' } },
    ]);
    expect(joined(chunks, 'reasoning_content')).toBe('Think it through.');
    expect(chunks.flatMap((c) => c.choices[0]?.delta.thinking_blocks ?? [])).toEqual([
      { type: 'thinking', thinking: 'Think it through.' },
      { type: 'thinking', thinking: '', signature: SIGNATURE },
      { type: 'redacted_thinking', data: 'opaque==' },
    ]);
  });

  it('throws the mapped class of an error reported mid-stream, with OpenRouter’s message', async () => {
    mock.setBehavior('/or', sseRaw('openrouter', 'stream-mid-stream-error.sse'));
    const error = await stream(openrouterAdapter, target('openai/gpt-4o')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toContain('Provider disconnected unexpectedly');
  });

  it('throws for the mock’s OpenRouter error chunk too', async () => {
    mock.setBehavior('/or', { openaiVariant: { reasoningFormat: 'openrouter' }, stream: { errorAfter: 2 } });
    await expect(stream(openrouterAdapter, target())).rejects.toBeInstanceOf(InternalServerError);
  });
});

describe('OpenRouter reasoning history', () => {
  it('sends reasoning_details back verbatim on the next turn, with the reasoning text', async () => {
    mock.setBehavior('/or', {
      reasoning: 'Call the tool.',
      signature: SIGNATURE,
      toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Florence' } }],
      openaiVariant: { reasoningFormat: 'openrouter' },
    });
    const first = await chat(openrouterAdapter, target(), { tools: TOOLS });
    const assistant = first.choices[0]!.message;
    const messages: ChatMessage[] = [
      ...USER,
      assistant,
      { role: 'tool', tool_call_id: 'toolu_1', content: '40 C' },
    ];
    await chat(openrouterAdapter, target(), { tools: TOOLS, messages });
    expect(sentMessages(mock, 1)?.[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'toolu_1',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Florence"}' },
        },
      ],
      reasoning: 'Call the tool.',
      reasoning_details: [
        {
          type: 'reasoning.text',
          text: 'Call the tool.',
          signature: SIGNATURE,
          format: 'anthropic-claude-v1',
          index: 0,
        },
      ],
    });
  });

  it('turns Anthropic thinking_blocks from another provider into reasoning_details for anthropic/ models', async () => {
    const messages: ChatMessage[] = [
      ...USER,
      {
        role: 'assistant',
        content: 'Hello',
        reasoning_content: 'Greet back.',
        thinking_blocks: [
          { type: 'thinking', thinking: 'Greet back.', signature: SIGNATURE },
          { type: 'redacted_thinking', data: 'opaque==' },
        ],
      },
      { role: 'user', content: 'Again' },
    ];
    await chat(openrouterAdapter, target(), { messages });
    expect(sentMessages(mock, 0)?.[1]).toEqual({
      role: 'assistant',
      content: 'Hello',
      reasoning: 'Greet back.',
      reasoning_details: [
        {
          type: 'reasoning.text',
          text: 'Greet back.',
          signature: SIGNATURE,
          format: 'anthropic-claude-v1',
          index: 0,
        },
        { type: 'reasoning.encrypted', data: 'opaque==', format: 'anthropic-claude-v1', index: 1 },
      ],
    });
  });

  it('refuses thinking_blocks for a non-Anthropic model unless drop_params removes them', async () => {
    const messages: ChatMessage[] = [
      ...USER,
      {
        role: 'assistant',
        content: 'Hello',
        thinking_blocks: [{ type: 'thinking', thinking: 't', signature: 's' }],
      },
      { role: 'user', content: 'Again' },
    ];
    await expect(chat(openrouterAdapter, target('openai/gpt-4o'), { messages })).rejects.toBeInstanceOf(
      BadRequestError,
    );
    expect(mock.requests).toHaveLength(0);
  });
});
