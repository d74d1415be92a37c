import { afterAll, describe, expect, it } from 'vitest';
import { BadRequestError, type ChatMessage, Router, ServiceUnavailableError } from '../../src/index.js';
import { deepseekAdapter } from '../../src/providers/deepseek/index.js';
import { deepseekReasoningParams } from '../../src/providers/deepseek/reasoning-params.js';
import { useMock } from '../helpers.js';
import {
  chat,
  closeHttp,
  fixtureJson,
  joined,
  sentMessages,
  sseRaw,
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

const TOOL_TURN: ChatMessage[] = [
  { role: 'user', content: 'Weather in Hangzhou tomorrow?' },
  {
    role: 'assistant',
    content: '',
    reasoning_content: 'The user wants the weather; call get_weather.',
    tool_calls: [
      {
        index: 0,
        id: 'call_00_x8Rq2yZ1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Hangzhou"}' },
      },
    ],
    function_call: null,
  },
  { role: 'tool', tool_call_id: 'call_00_x8Rq2yZ1', content: 'Cloudy, 7~13°C' },
];

describe('DeepSeek answers replayed from the API reference', () => {
  it('reads reasoning_content and reports context-cache hits as cached_tokens', () => {
    const res = deepseekAdapter.chat.parse(
      fixtureJson('deepseek', 'chat-completion-reasoner.json'),
      target(),
      { model: 'g', messages: USER },
    );
    expect(res.choices[0]?.message).toEqual({
      role: 'assistant',
      content: '9.8 is greater than 9.11.',
      tool_calls: null,
      function_call: null,
      reasoning_content: 'Compare the decimals: 9.8 is 9.80, and 9.80 > 9.11, so 9.8 is greater.',
    });
    expect(res.usage).toEqual({
      prompt_tokens: 90,
      completion_tokens: 61,
      total_tokens: 151,
      completion_tokens_details: { reasoning_tokens: 44 },
      prompt_tokens_details: { cached_tokens: 64 },
    });
    expect(res.system_fingerprint).toBe('fp_7e73fd9a08_prod0225');
  });

  it('reads a thinking-mode tool call with its reasoning', () => {
    const res = deepseekAdapter.chat.parse(
      fixtureJson('deepseek', 'chat-completion-tool-call.json'),
      target(),
      { model: 'g', messages: USER },
    );
    expect(res.choices[0]?.finish_reason).toBe('tool_calls');
    expect(res.choices[0]?.message.reasoning_content).toContain('call get_weather');
    expect(res.choices[0]?.message.tool_calls?.[0]?.function).toEqual({
      name: 'get_weather',
      arguments: '{"location": "Hangzhou"}',
    });
    expect(res.usage.prompt_tokens_details).toEqual({ cached_tokens: 256 });
  });

  it('streams a recorded answer past its keep-alive comment: reasoning then content, one id, usage last', async () => {
    mock.setBehavior('/ds', sseRaw('deepseek', 'stream-reasoner.sse'));
    const chunks = await stream(deepseekAdapter, target());
    expect(joined(chunks, 'reasoning_content')).toBe('Compare 9.80 with 9.11.');
    expect(joined(chunks, 'content')).toBe('9.8 is greater.');
    expect(chunks.every((c) => c.id === '5d2e8c1a-77b0-4f3e-a1c9-3b6d0e9f2a41')).toBe(true);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: null });
    expect(chunks.at(-1)?.usage).toMatchObject({
      prompt_tokens: 18,
      completion_tokens: 40,
      total_tokens: 58,
    });
  });

  it('throws ServiceUnavailableError for finish_reason insufficient_system_resource in a stream', async () => {
    mock.setBehavior('/ds', sseRaw('deepseek', 'stream-insufficient-resource.sse'));
    await expect(stream(deepseekAdapter, target())).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('throws ServiceUnavailableError for a plain answer cut for lack of resources', () => {
    const body = fixtureJson('deepseek', 'chat-completion-reasoner.json');
    (body.choices as Array<Record<string, unknown>>)[0]!.finish_reason = 'insufficient_system_resource';
    expect(() => deepseekAdapter.chat.parse(body, target(), { model: 'g', messages: USER })).toThrow(
      ServiceUnavailableError,
    );
  });
});

describe('DeepSeek reasoning history', () => {
  it('sends reasoning_content back on a tool-call turn, without the envelope-only fields', async () => {
    await chat(deepseekAdapter, target(), { messages: TOOL_TURN, tools: TOOLS });
    expect(sentMessages(mock, 0)).toEqual([
      { role: 'user', content: 'Weather in Hangzhou tomorrow?' },
      {
        role: 'assistant',
        content: '',
        reasoning_content: 'The user wants the weather; call get_weather.',
        tool_calls: [
          {
            id: 'call_00_x8Rq2yZ1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Hangzhou"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_00_x8Rq2yZ1', content: 'Cloudy, 7~13°C' },
    ]);
  });

  const ANTHROPIC_HISTORY: ChatMessage[] = [
    { role: 'user', content: 'What is 2+2?' },
    {
      role: 'assistant',
      content: '4',
      reasoning_content: 'Simple arithmetic.',
      thinking_blocks: [{ type: 'thinking', thinking: 'Simple arithmetic.', signature: 'EqQBCgIYAhIM...' }],
      tool_calls: null,
      function_call: null,
    },
    { role: 'user', content: 'And times 3?' },
  ];
  const router = () =>
    new Router(
      [
        {
          model_name: 'ds',
          svc_params: {
            model: 'deepseek/deepseek-reasoner',
            api_base: `${mock.url}/ds`,
            api_key: 'sk-ds-0000',
          },
        },
      ],
      { num_retries: 0 },
    );

  it('switching from an Anthropic history with drop_params removes thinking_blocks and keeps reasoning_content', async () => {
    const r = router();
    await r.acompletion({ model: 'ds', messages: ANTHROPIC_HISTORY, drop_params: true });
    await r.close();
    expect(mock.requests[0]?.body).toEqual({
      model: 'deepseek-reasoner',
      messages: [
        { role: 'user', content: 'What is 2+2?' },
        { role: 'assistant', content: '4', reasoning_content: 'Simple arithmetic.' },
        { role: 'user', content: 'And times 3?' },
      ],
    });
  });

  it('switching from an Anthropic history without drop_params fails with BadRequestError and sends nothing', async () => {
    const r = router();
    const error = await r.acompletion({ model: 'ds', messages: ANTHROPIC_HISTORY }).catch((e: unknown) => e);
    await r.close();
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain('thinking_blocks');
    expect((error as Error).message).toContain('drop_params');
    expect(mock.requests).toHaveLength(0);
  });
});

describe('DeepSeek reasoning controls', () => {
  it.each([
    [{ reasoning_effort: 'minimal' }, { thinking: { type: 'enabled' }, reasoning_effort: 'low' }],
    [{ reasoning_effort: 'low' }, { thinking: { type: 'enabled' }, reasoning_effort: 'low' }],
    [{ reasoning_effort: 'medium' }, { thinking: { type: 'enabled' }, reasoning_effort: 'high' }],
    [{ reasoning_effort: 'high' }, { thinking: { type: 'enabled' }, reasoning_effort: 'high' }],
    [{ reasoning_effort: 'none' }, { thinking: { type: 'disabled' } }],
    [
      { thinking: { type: 'enabled', budget_tokens: 1024 } },
      { thinking: { type: 'enabled' }, reasoning_effort: 'low' },
    ],
    [
      { thinking: { type: 'enabled', budget_tokens: 8000 } },
      { thinking: { type: 'enabled' }, reasoning_effort: 'high' },
    ],
    [{ thinking: { type: 'disabled' }, reasoning_effort: 'high' }, { thinking: { type: 'disabled' } }],
    [{}, {}],
  ] as const)('maps %j to %j', (request, expected) => {
    expect(deepseekReasoningParams(request)).toEqual(expected);
  });

  it('sends the mapped fields in place of reasoning_effort', async () => {
    await chat(deepseekAdapter, target(), { reasoning_effort: 'medium' });
    expect(mock.requests[0]?.body).toEqual({
      model: 'deepseek-reasoner',
      messages: USER,
      thinking: { type: 'enabled' },
      reasoning_effort: 'high',
    });
  });

  it('applies a thinking preset in svc_params when the caller says nothing of reasoning', async () => {
    await chat(deepseekAdapter, target({ thinking: { type: 'disabled' } }));
    expect(mock.requests[0]?.body).toMatchObject({ thinking: { type: 'disabled' } });
    expect(mock.requests[0]?.body).not.toHaveProperty('reasoning_effort');
  });

  it('lets the caller’s reasoning_effort override a thinking preset in svc_params', async () => {
    await chat(deepseekAdapter, target({ thinking: { type: 'disabled' } }), { reasoning_effort: 'high' });
    expect(mock.requests[0]?.body).toMatchObject({ thinking: { type: 'enabled' }, reasoning_effort: 'high' });
  });
});
