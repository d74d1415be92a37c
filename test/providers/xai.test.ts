import { afterAll, describe, expect, it } from 'vitest';
import { BadRequestError, type ChatMessage, Router } from '../../src/index.js';
import { xaiAdapter } from '../../src/providers/xai/index.js';
import { xaiReasoningParams } from '../../src/providers/xai/reasoning-params.js';
import { useMock } from '../helpers.js';
import {
  chat,
  closeHttp,
  fixtureJson,
  joined,
  jsonRaw,
  OPTIONS,
  sentMessages,
  sseRaw,
  stream,
  TOOLS,
  targetOn,
  USER,
} from './openai-family-helpers.js';

const mock = useMock();
const target = (model = 'grok-3-mini', params: Record<string, unknown> = {}) =>
  targetOn(mock, xaiAdapter, model, '/x/v1', params);
const dropping = { ...OPTIONS, dropParams: true };

afterAll(async () => {
  await closeHttp();
});

describe('xAI requests', () => {
  it('defaults to https://api.x.ai/v1 with the key from XAI_API_KEY', () => {
    expect(xaiAdapter.defaults).toEqual({ apiBase: 'https://api.x.ai/v1', apiKeyEnv: 'XAI_API_KEY' });
  });

  it('posts the chat to {api_base}/chat/completions with a Bearer key and the reasoning effort', async () => {
    await chat(xaiAdapter, target(), { tools: TOOLS, reasoning_effort: 'high' });
    const [request] = mock.requests;
    expect(request?.path).toBe('/x/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test-key-123456');
    expect(request?.body).toEqual({
      model: 'grok-3-mini',
      messages: USER,
      tools: TOOLS,
      reasoning_effort: 'high',
    });
  });

  it('returns the contract envelope with reasoning_content and tool calls', async () => {
    mock.setBehavior('/x', {
      reasoning: 'Look up the weather.',
      toolCalls: [{ id: 'call_55117580', name: 'get_weather', arguments: { city: 'San Francisco' } }],
    });
    const res = await chat(xaiAdapter, target(), { tools: TOOLS });
    expect(res.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        function_call: null,
        reasoning_content: 'Look up the weather.',
        tool_calls: [
          {
            index: 0,
            id: 'call_55117580',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"San Francisco"}' },
          },
        ],
      },
    });
  });

  it('streams whole tool calls as a header then the arguments, and de-duplicates repeated reasoning', async () => {
    mock.setBehavior('/x', {
      reasoning: 'Look up the weather.',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }],
      openaiVariant: { wholeToolCalls: true, repeatReasoningDeltas: 3 },
    });
    const chunks = await stream(xaiAdapter, target(), { tools: TOOLS });
    expect(mock.requests[0]?.path).toBe('/x/v1/chat/completions');
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer sk-test-key-123456');
    expect(mock.requests[0]?.body).toEqual({
      model: 'grok-3-mini',
      messages: USER,
      tools: TOOLS,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(joined(chunks, 'reasoning_content')).toBe('Look up the weather.');
    expect(chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])).toEqual([
      { index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":"Paris"}' } },
    ]);
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
  });
});

describe('xAI answers replayed from recorded streams', () => {
  it('de-duplicates grok-4’s repeated "Thinking... " reasoning deltas', async () => {
    mock.setBehavior('/x', sseRaw('xai', 'stream-grok-4-repeated-reasoning.sse'));
    const chunks = await stream(xaiAdapter, target('grok-4-0709'));
    const reasoning = chunks.map((c) => c.choices[0]?.delta.reasoning_content).filter(Boolean);
    expect(reasoning).toEqual(['Thinking... ', 'Actually calculating now...']);
    expect(joined(chunks, 'content')).toBe('The answer is 42.');
  });

  it('counts grok-4’s reasoning tokens as completion tokens on the finish chunk', async () => {
    mock.setBehavior('/x', sseRaw('xai', 'stream-grok-4-repeated-reasoning.sse'));
    const chunks = await stream(xaiAdapter, target('grok-4-0709'));
    const last = chunks.at(-1)!;
    expect(last.choices[0]?.finish_reason).toBe('stop');
    expect(last.usage).toMatchObject({ prompt_tokens: 15, completion_tokens: 20, total_tokens: 35 });
  });

  it('replays a grok-3-mini tool call: reasoning pieces, indexed tool call split in two, usage with reasoning', async () => {
    mock.setBehavior('/x', sseRaw('xai', 'stream-grok-3-mini-tool-call.sse'));
    const chunks = await stream(xaiAdapter, target());
    expect(joined(chunks, 'reasoning_content')).toBe('First, the user is');
    expect(chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])).toEqual([
      { index: 0, id: 'call_55117580', type: 'function', function: { name: 'weather', arguments: '' } },
      { index: 0, function: { arguments: '{"location":"San Francisco"}' } },
    ]);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 291, completion_tokens: 222, total_tokens: 513 },
    });
    expect(new Set(chunks.map((c) => `${c.id}/${c.created}`)).size).toBe(1);
  });

  it('reads a grok-3-mini answer with reasoning_content and its reasoning tokens', () => {
    const res = xaiAdapter.chat.parse(fixtureJson('xai', 'chat-completion-grok-3-mini.json'), target(), {
      model: 'g',
      messages: USER,
    });
    expect(res.choices[0]?.message).toEqual({
      role: 'assistant',
      content: '101 multiplied by 3 is 303.',
      tool_calls: null,
      function_call: null,
      reasoning_content: 'Let me calculate 101 multiplied by 3: 101 * 3 = 303.',
    });
    expect(res.usage).toMatchObject({ prompt_tokens: 32, completion_tokens: 103, total_tokens: 135 });
  });
});

describe('xAI reasoning_effort', () => {
  it.each([
    ['grok-3-mini', 'minimal', 'low'],
    ['grok-3-mini', 'low', 'low'],
    ['grok-3-mini', 'medium', 'high'],
    ['grok-3-mini-fast', 'high', 'high'],
    ['grok-4.3', 'medium', 'medium'],
    ['grok-4.3', 'none', 'none'],
    ['grok-4.3', 'minimal', 'low'],
    ['grok-4-0709', 'low', 'low'],
    ['grok-5', 'minimal', 'minimal'],
  ] as const)('on %s maps %s to %s', (model, effort, expected) => {
    expect(xaiReasoningParams({ reasoning_effort: effort }, model)).toEqual({ reasoning_effort: expected });
  });

  it('maps an explicit thinking budget to the effort of that size, winning over reasoning_effort', () => {
    const request = {
      thinking: { type: 'enabled' as const, budget_tokens: 4096 },
      reasoning_effort: 'low' as const,
    };
    expect(xaiReasoningParams(request, 'grok-3-mini')).toEqual({ reasoning_effort: 'high' });
  });

  it('passes an effort a model rejects when drop_params is off, so xAI’s error comes back', async () => {
    await chat(xaiAdapter, target('grok-4-0709'), { reasoning_effort: 'high' });
    expect(mock.requests[0]?.body).toMatchObject({ reasoning_effort: 'high' });
  });

  it('drops the effort for a model that rejects it when drop_params is on', async () => {
    await chat(xaiAdapter, target('grok-4-fast-reasoning'), { reasoning_effort: 'high' }, dropping);
    expect(mock.requests[0]?.body).toEqual({ model: 'grok-4-fast-reasoning', messages: USER });
  });

  it('drops `none` on grok-3-mini (which cannot stop reasoning) only with drop_params', async () => {
    await chat(xaiAdapter, target(), { reasoning_effort: 'none' });
    await chat(xaiAdapter, target(), { reasoning_effort: 'none' }, dropping);
    expect(mock.requests[0]?.body).toMatchObject({ reasoning_effort: 'none' });
    expect(mock.requests[1]?.body).not.toHaveProperty('reasoning_effort');
  });

  it('keeps the effort for models it cannot judge (grok-4, grok-latest), even with drop_params', async () => {
    await chat(xaiAdapter, target('grok-4'), { reasoning_effort: 'low' }, dropping);
    expect(mock.requests[0]?.body).toMatchObject({ reasoning_effort: 'low' });
  });

  it('drops the sampling fields reasoning models refuse when drop_params is on', async () => {
    const sampling = { presence_penalty: 0.5, frequency_penalty: 0.5, stop: ['\n'], temperature: 0.2 };
    await chat(xaiAdapter, target(), sampling, dropping);
    await chat(xaiAdapter, target('grok-4-fast-non-reasoning'), sampling, dropping);
    expect(mock.requests[0]?.body).toEqual({ model: 'grok-3-mini', messages: USER, temperature: 0.2 });
    expect(mock.requests[1]?.body).toMatchObject(sampling);
  });
});

describe('xAI reasoning history', () => {
  const history: ChatMessage[] = [
    { role: 'user', content: '101 * 3?' },
    {
      role: 'assistant',
      content: '303',
      reasoning_content: '101 * 3 = 303',
      tool_calls: null,
      function_call: null,
    },
    { role: 'user', content: 'And * 4?' },
  ];

  it('takes its own answers back, leaving reasoning_content off the wire', async () => {
    await chat(xaiAdapter, target(), { messages: history });
    expect(sentMessages(mock, 0)).toEqual([
      { role: 'user', content: '101 * 3?' },
      { role: 'assistant', content: '303' },
      { role: 'user', content: 'And * 4?' },
    ]);
  });

  it('refuses Anthropic thinking_blocks without drop_params, before sending anything', async () => {
    const withBlocks: ChatMessage[] = [
      history[0]!,
      { ...history[1]!, thinking_blocks: [{ type: 'thinking', thinking: 'x', signature: 's' }] },
      history[2]!,
    ];
    await expect(chat(xaiAdapter, target(), { messages: withBlocks })).rejects.toBeInstanceOf(
      BadRequestError,
    );
    expect(mock.requests).toHaveLength(0);
  });
});

describe('xAI errors', () => {
  it('reads xAI’s own { code, error } body into the message', async () => {
    mock.setBehavior('/x', jsonRaw('xai', 'error-reasoning-effort-unsupported.json', 400));
    const error = await chat(xaiAdapter, target('grok-4-0709'), { reasoning_effort: 'low' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain(
      'Client specified an invalid argument: Argument not supported on this model: reasoningEffort',
    );
  });

  it('reads the OpenAI-shaped error body too', () => {
    const failure = xaiAdapter.readError(
      400,
      JSON.stringify(fixtureJson('xai', 'error-invalid-value.json')),
      {},
    );
    expect(failure).toMatchObject({
      status: 400,
      message: 'Invalid value: temperature must be between 0 and 2',
      code: 'invalid_value',
    });
  });
});

describe('xAI through the Router', () => {
  it('routes xai/ deployments to the xAI adapter', async () => {
    mock.setBehavior('/x', { content: '303', reasoning: '101 * 3' });
    const r = new Router([
      {
        model_name: 'grok',
        svc_params: { model: 'xai/grok-3-mini', api_base: `${mock.url}/x/v1`, api_key: 'xai-0000' },
      },
    ]);
    const res = await r.acompletion({ model: 'grok', messages: USER, reasoning_effort: 'minimal' });
    await r.close();
    expect(res._hidden_params.custom_llm_provider).toBe('xai');
    expect(res.choices[0]?.message.reasoning_content).toBe('101 * 3');
    expect(mock.requests[0]?.body).toMatchObject({ reasoning_effort: 'low' });
  });
});
