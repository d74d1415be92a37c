import { beforeAll, describe, expect, it } from 'vitest';
import { type ChatMessage, Router } from '../../src/index.js';
import { anthropicAdapter, createAnthropicAdapter } from '../../src/providers/anthropic/index.js';
import type { MockProvider } from '../../src/testing/index.js';

import { anthropicSuite, joined, KEY, USER, WEATHER_TOOL } from './anthropic-helpers.js';

const suite = anthropicSuite();
const { target, chat, stream } = suite;
let mock: MockProvider;
beforeAll(() => {
  mock = suite.mock;
});

describe('Anthropic through the Router', () => {
  const claude = (name: string, params: Record<string, unknown> = {}) => ({
    model_name: 'claude',
    svc_params: {
      model: 'anthropic/claude-sonnet-4-5',
      api_base: `${mock.url}/${name}`,
      api_key: KEY,
      ...params,
    },
    model_info: { id: name },
  });

  it('routes an anthropic/ deployment to the Messages API and reports the provider', async () => {
    mock.setBehavior('/r', { content: 'Routed!' });
    const router = new Router([claude('r')]);
    const res = await router.acompletion({ model: 'claude', messages: USER, metadata: { trace: 'x' } });
    await router.close();
    expect(res.choices[0]?.message.content).toBe('Routed!');
    expect(res._hidden_params.custom_llm_provider).toBe('anthropic');
    expect(mock.requests[0]?.path).toBe('/r/v1/messages');
    expect(mock.requests[0]?.body).not.toHaveProperty('metadata');
  });

  it('reads the key from ANTHROPIC_API_KEY when the deployment sets none', async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-from-env-9999';
    try {
      const router = new Router([claude('env', { api_key: undefined })]);
      await router.acompletion({ model: 'claude', messages: USER });
      await router.close();
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
    expect(mock.requests[0]?.headers['x-api-key']).toBe('sk-ant-from-env-9999');
    expect(anthropicAdapter.defaults).toEqual({
      apiBase: 'https://api.anthropic.com',
      apiKeyEnv: 'ANTHROPIC_API_KEY',
    });
  });

  it('sends the thinking block with its signature before the tool_use, and the tool_result, on the second turn', async () => {
    mock.setBehavior('/t', {
      reasoning: 'The user wants the weather in Paris.',
      signature: 'BDaL4VrbR2Oj0hO4XpJxT28J5T',
      content: 'Let me check.',
      toolCalls: [
        { id: 'toolu_01CswdEQBMshySk6Y9DFKrfq', name: 'get_weather', arguments: { location: 'Paris' } },
      ],
    });
    const router = new Router([claude('t')]);
    const question: ChatMessage = { role: 'user', content: "What's the weather in Paris?" };
    const first = await router.acompletion({
      model: 'claude',
      messages: [question],
      tools: [WEATHER_TOOL],
      reasoning_effort: 'low',
    });
    const assistant = first.choices[0]!.message;
    mock.setBehavior('/t', { content: 'It is 88°F in Paris.' });
    const second = await router.acompletion({
      model: 'claude',
      messages: [
        question,
        assistant,
        { role: 'tool', tool_call_id: assistant.tool_calls![0]!.id, content: '{"temperature":88}' },
      ],
      tools: [WEATHER_TOOL],
      reasoning_effort: 'low',
    });
    await router.close();
    expect(second.choices[0]?.message.content).toBe('It is 88°F in Paris.');
    expect(mock.requests[1]?.body).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'user', content: "What's the weather in Paris?" },
        {
          role: 'assistant',
          content: [
            {
              type: 'thinking',
              thinking: 'The user wants the weather in Paris.',
              signature: 'BDaL4VrbR2Oj0hO4XpJxT28J5T',
            },
            { type: 'text', text: 'Let me check.' },
            {
              type: 'tool_use',
              id: 'toolu_01CswdEQBMshySk6Y9DFKrfq',
              name: 'get_weather',
              input: { location: 'Paris' },
            },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_01CswdEQBMshySk6Y9DFKrfq',
              content: '{"temperature":88}',
            },
          ],
        },
      ],
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [
        {
          name: 'get_weather',
          description: 'Get current weather for a location',
          input_schema: WEATHER_TOOL.function.parameters,
        },
      ],
    });
  });
});

describe('createAnthropicAdapter (Claude on other hosts)', () => {
  const vertexLike = createAnthropicAdapter({
    name: 'vertex_ai',
    url: (t, streaming) =>
      `${t.apiBase}/v1/projects/p/locations/us-east5/publishers/anthropic/models/${t.model}:${streaming ? 'streamRawPredict' : 'rawPredict'}`,
    headers: async (t) => ({ authorization: `Bearer ${t.apiKey}` }),
    body: ({ model: _model, ...rest }) => ({ ...rest, anthropic_version: 'vertex-2023-10-16' }),
  });

  it('uses the host’s URL, async headers and body changes', async () => {
    mock.setBehavior('/v', { content: 'from vertex' });
    const res = await chat({}, target('v'), vertexLike);
    const [sent] = mock.requests;
    expect(sent?.path).toBe(
      '/v/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5:rawPredict',
    );
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent?.headers['x-api-key']).toBeUndefined();
    expect(sent?.body).toEqual({
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 4096,
      anthropic_version: 'vertex-2023-10-16',
    });
    expect(res.choices[0]?.message.content).toBe('from vertex');
    expect(res.model).toBe('claude-sonnet-4-5');
  });

  it('streams from :streamRawPredict with stream: true in the body', async () => {
    const chunks = await stream({}, target('v'), vertexLike);
    expect(mock.requests[0]?.path).toMatch(/:streamRawPredict$/);
    expect(mock.requests[0]?.body).toMatchObject({ stream: true, anthropic_version: 'vertex-2023-10-16' });
    expect(joined(chunks, (c) => c.choices[0]?.delta.content)).toBe('Hello from the mock provider.');
  });
});
