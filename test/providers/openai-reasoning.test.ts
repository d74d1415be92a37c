import { afterAll, describe, expect, it } from 'vitest';
import { BadRequestError, type ChatMessage, Router } from '../../src/index.js';
import { openaiAdapter } from '../../src/providers/openai/adapter.js';
import { openaiModelReasons, openaiReasoningParams } from '../../src/providers/openai/reasoning-params.js';
import { useMock } from '../helpers.js';
import {
  chat,
  closeHttp,
  fixtureJson,
  jsonRaw,
  OPTIONS,
  sentMessages,
  stream,
  TOOLS,
  targetOn,
  USER,
} from './openai-family-helpers.js';

const mock = useMock();
const target = (model = 'o3', params: Record<string, unknown> = {}) =>
  targetOn(mock, openaiAdapter, model, '/oa/v1', params);
const dropping = { ...OPTIONS, dropParams: true };

afterAll(async () => {
  await closeHttp();
});

describe('OpenAI reasoning_effort', () => {
  it('passes reasoning_effort through for reasoning models', async () => {
    await chat(openaiAdapter, target('o3'), { reasoning_effort: 'high' });
    await chat(openaiAdapter, target('gpt-5-mini'), { reasoning_effort: 'minimal' });
    expect(mock.requests[0]?.body).toEqual({ model: 'o3', messages: USER, reasoning_effort: 'high' });
    expect(mock.requests[1]?.body).toMatchObject({ reasoning_effort: 'minimal' });
  });

  it.each([
    [{ thinking: { type: 'enabled', budget_tokens: 1024 } }, { reasoning_effort: 'low' }],
    [{ thinking: { type: 'enabled', budget_tokens: 2048 } }, { reasoning_effort: 'medium' }],
    [
      { thinking: { type: 'enabled', budget_tokens: 10000 }, reasoning_effort: 'low' },
      { reasoning_effort: 'high' },
    ],
    [{ thinking: { type: 'disabled' }, reasoning_effort: 'high' }, {}],
    [{ reasoning_effort: 'none' }, { reasoning_effort: 'none' }],
    [{}, {}],
  ] as const)('maps %j to %j', (request, expected) => {
    expect(openaiReasoningParams(request)).toEqual(expected);
  });

  it('never sends Anthropic-style thinking to OpenAI, even when preset in svc_params', async () => {
    await chat(openaiAdapter, target('o4-mini', { thinking: { type: 'enabled', budget_tokens: 4096 } }));
    expect(mock.requests[0]?.body).toEqual({ model: 'o4-mini', messages: USER, reasoning_effort: 'high' });
  });

  it.each([
    ['o1', true],
    ['o3-mini', true],
    ['gpt-5', true],
    ['gpt-5.1-codex', true],
    ['gpt-5-chat-latest', false],
    ['gpt-4o', false],
    ['gpt-4.1-mini', false],
    ['my-finetune', undefined],
  ] as const)('tells whether %s reasons: %s', (model, expected) => {
    expect(openaiModelReasons(model)).toBe(expected);
  });

  it('drops reasoning_effort for a model known not to reason when drop_params is on', async () => {
    await chat(openaiAdapter, target('gpt-4o'), { reasoning_effort: 'low' }, dropping);
    expect(mock.requests[0]?.body).toEqual({ model: 'gpt-4o', messages: USER });
  });

  it('sends it without drop_params, and OpenAI’s refusal comes back as BadRequestError', async () => {
    mock.setBehavior('/oa', jsonRaw('openai', 'error-400-unsupported-reasoning-effort.json', 400));
    const error = await chat(openaiAdapter, target('gpt-4o'), { reasoning_effort: 'low' }).catch(
      (e: unknown) => e,
    );
    expect(mock.requests[0]?.body).toMatchObject({ reasoning_effort: 'low' });
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain("Unsupported parameter: 'reasoning_effort'");
  });

  it('reads an o3 answer with its reasoning tokens and no empty provider fields', () => {
    const res = openaiAdapter.chat.parse(
      fixtureJson('openai', 'chat-completion-o3-reasoning.json'),
      target(),
      {
        model: 'g',
        messages: USER,
      },
    );
    expect(res.choices[0]?.message).toEqual({
      role: 'assistant',
      content: 'There are 3 r\'s in "strawberry".',
      tool_calls: null,
      function_call: null,
    });
    expect(res.usage.completion_tokens_details?.reasoning_tokens).toBe(192);
    expect(res.system_fingerprint).toBeNull();
    expect(res.service_tier).toBe('default');
  });
});

describe('OpenAI reasoning history', () => {
  const anthropicTurn: ChatMessage = {
    role: 'assistant',
    content: '4',
    reasoning_content: 'Add them.',
    thinking_blocks: [{ type: 'thinking', thinking: 'Add them.', signature: 'sig' }],
  };
  const history: ChatMessage[] = [...USER, anthropicTurn, { role: 'user', content: 'Times 3?' }];

  it('refuses thinking_blocks and reasoning_content without drop_params, sending nothing', async () => {
    const error = await chat(openaiAdapter, target(), { messages: history }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain('`thinking_blocks` or `reasoning_content`');
    expect(mock.requests).toHaveLength(0);
  });

  it('removes both with drop_params', async () => {
    await chat(openaiAdapter, target(), { messages: history }, dropping);
    expect(sentMessages(mock, 0)).toEqual([
      ...USER,
      { role: 'assistant', content: '4' },
      { role: 'user', content: 'Times 3?' },
    ]);
  });

  it('sends an appended answer of its own without the envelope-only fields', async () => {
    mock.setBehavior('/oa', {
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
    });
    const first = await chat(openaiAdapter, target('gpt-4o'), { tools: TOOLS });
    const messages: ChatMessage[] = [
      ...USER,
      first.choices[0]!.message,
      { role: 'tool', tool_call_id: 'call_1', content: '3°C' },
    ];
    await chat(openaiAdapter, target('gpt-4o'), { tools: TOOLS, messages });
    expect(sentMessages(mock, 1)?.[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
      ],
    });
  });

  it('applies a drop_params router setting through the Router', async () => {
    const r = new Router(
      [
        {
          model_name: 'o3',
          svc_params: { model: 'openai/o3', api_base: `${mock.url}/oa/v1`, api_key: 'sk-oa-0000' },
        },
      ],
      { drop_params: true },
    );
    await r.acompletion({ model: 'o3', messages: history });
    await r.close();
    expect(sentMessages(mock, 0)?.[1]).toEqual({
      role: 'assistant',
      content: '4',
    });
  });
});

describe('OpenAI streams', () => {
  it('puts role on the first chunk only and streams tool calls as header then arguments', async () => {
    mock.setBehavior('/oa', {
      toolCalls: [{ id: 'call_9', name: 'get_weather', arguments: { city: 'Rome' } }],
    });
    const chunks = await stream(openaiAdapter, target('gpt-4o'), { tools: TOOLS });
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunks.slice(1).some((c) => c.choices[0]?.delta.role !== undefined)).toBe(false);
    expect(chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])).toEqual([
      { index: 0, id: 'call_9', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":"Rome"}' } },
    ]);
  });
});

describe('OpenAI-compatible stream normalization', () => {
  const frame = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

  it('emits one header per tool call when a server repeats the id and name on every piece', async () => {
    const call = (args: string) => ({
      tool_calls: [{ index: 0, id: 'call_r', type: 'function', function: { name: 'f', arguments: args } }],
    });
    mock.setBehavior('/oa', {
      raw: {
        headers: { 'content-type': 'text/event-stream' },
        body: [
          frame({ role: 'assistant' }),
          frame(call('{"a"')),
          frame(call(':1}')),
          frame({}, 'tool_calls'),
          'data: [DONE]\n\n',
        ],
      },
    });
    const chunks = await stream(openaiAdapter, target('gpt-4o'));
    expect(chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])).toEqual([
      { index: 0, id: 'call_r', type: 'function', function: { name: 'f', arguments: '' } },
      { index: 0, function: { arguments: '{"a"' } },
      { index: 0, function: { arguments: ':1}' } },
    ]);
  });

  it('gives tool calls without an index one by order of their ids', async () => {
    const whole = (id: string, name: string) => ({
      tool_calls: [{ id, type: 'function', function: { name, arguments: '{}' } }],
    });
    mock.setBehavior('/oa', {
      raw: {
        headers: { 'content-type': 'text/event-stream' },
        body: [
          frame({ role: 'assistant' }),
          frame(whole('a', 'f')),
          frame(whole('b', 'g')),
          frame({}, 'tool_calls'),
          'data: [DONE]\n\n',
        ],
      },
    });
    const chunks = await stream(openaiAdapter, target('gpt-4o'));
    const headers = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).filter((t) => t.id);
    expect(headers.map((t) => [t.id, t.index])).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
  });

  it('skips a frame that is not JSON and keeps the rest of the answer', async () => {
    mock.setBehavior('/oa', {
      raw: {
        headers: { 'content-type': 'text/event-stream' },
        body: [
          frame({ role: 'assistant' }),
          'data: {oops\n\n',
          frame({ content: 'ok' }, 'stop'),
          'data: [DONE]\n\n',
        ],
      },
    });
    const chunks = await stream(openaiAdapter, target('gpt-4o'));
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('ok');
  });
});
