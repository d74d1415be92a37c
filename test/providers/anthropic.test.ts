import { beforeAll, describe, expect, it } from 'vitest';
import type { MockProvider } from '../../src/testing/index.js';

import { anthropicSuite, joined, KEY, WEATHER_TOOL } from './anthropic-helpers.js';

const suite = anthropicSuite();
const { target, chat, stream } = suite;
let mock: MockProvider;
beforeAll(() => {
  mock = suite.mock;
});

describe('Anthropic chat: the wire request', () => {
  it('posts to {api_base}/v1/messages with x-api-key, anthropic-version and the Anthropic body', async () => {
    await chat({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      temperature: 0.3,
    });
    const [sent] = mock.requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/a/v1/messages');
    expect(sent?.headers['x-api-key']).toBe(KEY);
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.body).toEqual({
      model: 'claude-sonnet-4-5',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 4096,
      temperature: 0.3,
    });
  });

  it('sends stream: true on a streaming call, with the same body otherwise', async () => {
    await stream({ max_tokens: 100 });
    expect(mock.requests[0]?.body).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 100,
      stream: true,
    });
  });

  it('sends tools and tool_choice in Anthropic shapes', async () => {
    await chat({ tools: [WEATHER_TOOL], tool_choice: 'required', parallel_tool_calls: false });
    expect(mock.requests[0]?.body).toMatchObject({
      tools: [
        {
          name: 'get_weather',
          description: 'Get current weather for a location',
          input_schema: WEATHER_TOOL.function.parameters,
        },
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
    });
  });

  it('uses svc_params request defaults under the caller’s fields', async () => {
    await chat({ temperature: 0.9 }, target('a', { temperature: 0.1, max_tokens: 500 }));
    expect(mock.requests[0]?.body).toMatchObject({ temperature: 0.9, max_tokens: 500 });
  });

  it('translates reasoning_effort to thinking.budget_tokens and raises max_tokens above it', async () => {
    await chat({ reasoning_effort: 'high', max_tokens: 1000 });
    expect(mock.requests[0]?.body).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 4096 },
      max_tokens: 8192,
    });
  });
});

describe('Anthropic chat: the normalized answer', () => {
  it('returns the contract envelope for a text answer', async () => {
    mock.setBehavior('/a', { content: 'Hi there', usage: { prompt_tokens: 3, completion_tokens: 2 } });
    const res = await chat();
    expect(res).toEqual({
      id: expect.stringMatching(/^msg_/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'claude-sonnet-4-5',
      system_fingerprint: null,
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: { role: 'assistant', content: 'Hi there', tool_calls: null, function_call: null },
        },
      ],
      usage: {
        prompt_tokens: 3,
        completion_tokens: 2,
        total_tokens: 5,
        prompt_tokens_details: { cached_tokens: 0, cache_creation_tokens: 0 },
      },
      service_tier: 'standard',
    });
    expect(Number.isInteger(res.created)).toBe(true);
  });

  it('returns tool calls, reasoning and signed thinking blocks', async () => {
    mock.setBehavior('/a', {
      reasoning: 'I should call the tool.',
      signature: 'sig-123',
      toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { location: 'Paris' } }],
    });
    const res = await chat({ tools: [WEATHER_TOOL] });
    expect(res.choices[0]?.finish_reason).toBe('tool_calls');
    expect(res.choices[0]?.message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          index: 0,
          id: 'toolu_1',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
        },
      ],
      function_call: null,
      reasoning_content: 'I should call the tool.',
      thinking_blocks: [{ type: 'thinking', thinking: 'I should call the tool.', signature: 'sig-123' }],
    });
  });

  it('returns redacted thinking as a redacted_thinking block', async () => {
    mock.setBehavior('/a', { redactedReasoning: 'EmwKAhgBEgy3va3pzix', content: 'ok' });
    const res = await chat();
    expect(res.choices[0]?.message.thinking_blocks).toEqual([
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
    ]);
    expect(res.choices[0]?.message.reasoning_content).toBeUndefined();
  });
});

describe('Anthropic chat: streaming', () => {
  it('streams chunks with one id: role first, text, finish reason, then usage', async () => {
    mock.setBehavior('/a', {
      content: 'Hello there friend',
      usage: { prompt_tokens: 7, completion_tokens: 4 },
    });
    const chunks = await stream();
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'claude-sonnet-4-5')).toBe(
      true,
    );
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    expect(joined(chunks, (c) => c.choices[0]?.delta.content)).toBe('Hello there friend');
    expect(chunks.at(-2)?.choices).toEqual([{ index: 0, delta: {}, finish_reason: 'stop' }]);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 7, completion_tokens: 4, total_tokens: 11 },
    });
  });

  it('streams thinking pieces with thinking_blocks, then the signature, then tool calls', async () => {
    mock.setBehavior('/a', {
      reasoning: 'Let me think about the weather',
      signature: 'sig-stream',
      toolCalls: [{ id: 'toolu_9', name: 'get_weather', arguments: { location: 'Paris' } }],
    });
    const chunks = await stream({ tools: [WEATHER_TOOL] });
    const deltas = chunks.flatMap((c) => c.choices.map((ch) => ch.delta));
    expect(joined(chunks, (c) => c.choices[0]?.delta.reasoning_content)).toBe(
      'Let me think about the weather',
    );
    const thinkingPieces = deltas.filter((d) => d.reasoning_content !== undefined);
    for (const d of thinkingPieces)
      expect(d.thinking_blocks).toEqual([{ type: 'thinking', thinking: d.reasoning_content }]);
    expect(deltas).toContainEqual({
      thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'sig-stream' }],
    });
    expect(deltas).toContainEqual({
      tool_calls: [
        { index: 0, id: 'toolu_9', type: 'function', function: { name: 'get_weather', arguments: '' } },
      ],
    });
    const args = deltas.flatMap((d) => d.tool_calls ?? []).map((t) => t.function?.arguments ?? '');
    expect(JSON.parse(args.join(''))).toEqual({ location: 'Paris' });
    expect(chunks.flatMap((c) => c.choices).at(-1)?.finish_reason).toBe('tool_calls');
  });

  it('streams a redacted_thinking block, which arrives only as a content_block_start with data', async () => {
    mock.setBehavior('/a', { redactedReasoning: 'EmwKAhgBEgy3va3p', content: 'done' });
    const chunks = await stream();
    const deltas = chunks.flatMap((c) => c.choices.map((ch) => ch.delta));
    expect(deltas).toContainEqual({
      thinking_blocks: [{ type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3p' }],
    });
  });
});
