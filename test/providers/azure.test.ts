import { afterAll, describe, expect, it } from 'vitest';
import { BadRequestError, Router } from '../../src/index.js';
import { AZURE_DEFAULT_API_VERSION, azureAdapter, azureUrl } from '../../src/providers/azure/index.js';
import { useMock } from '../helpers.js';
import {
  chat,
  closeHttp,
  fixtureJson,
  joined,
  sseRaw,
  stream,
  TOOLS,
  targetOn,
  USER,
} from './openai-family-helpers.js';

const mock = useMock();
const KEY = 'azure-key-0123456789';
const target = (params: Record<string, unknown> = {}) =>
  targetOn(mock, azureAdapter, 'my-gpt4o', '/az', { api_key: KEY, api_version: '2024-10-21', ...params });
const chatPath = '/az/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21';

afterAll(async () => {
  await closeHttp();
});

describe('Azure requests', () => {
  it('posts to {api_base}/openai/deployments/{deployment}/chat/completions?api-version= with the api-key header', async () => {
    await chat(azureAdapter, target(), { tools: TOOLS });
    const [request] = mock.requests;
    expect(request?.path).toBe(chatPath);
    expect(request?.headers['api-key']).toBe(KEY);
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body).toEqual({ model: 'my-gpt4o', messages: USER, tools: TOOLS });
  });

  it('takes api_version from svc_params, else AZURE_API_VERSION, else the documented GA default', () => {
    const t = target({ api_version: undefined });
    const bare = { ...t, apiVersion: undefined };
    expect(azureUrl(t, 'embeddings')).toBe(
      `${mock.url}/az/openai/deployments/my-gpt4o/embeddings?api-version=2024-10-21`,
    );
    expect(azureUrl(bare, 'chat/completions', { AZURE_API_VERSION: '2025-04-01-preview' })).toMatch(
      /\?api-version=2025-04-01-preview$/,
    );
    expect(azureUrl(bare, 'chat/completions', {})).toMatch(
      new RegExp(`\\?api-version=${AZURE_DEFAULT_API_VERSION}$`),
    );
    expect(AZURE_DEFAULT_API_VERSION).toBe('2024-10-21');
  });

  it('sends azure_ad_token as Authorization: Bearer instead of an api-key', async () => {
    await chat(azureAdapter, target({ api_key: undefined, azure_ad_token: 'eyJ.ad.token' }));
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer eyJ.ad.token');
    expect(mock.requests[0]?.headers['api-key']).toBeUndefined();
  });

  it('fails with a BadRequestError naming api_base when the deployment has none, sending nothing', async () => {
    const error = await chat(azureAdapter, { ...target(), apiBase: undefined }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain('api_base');
    expect(mock.requests).toHaveLength(0);
  });

  it('fails with an AuthenticationError naming the options when no credential is set', async () => {
    const t = { ...target({ api_key: undefined }), apiKey: undefined };
    await expect(chat(azureAdapter, t)).rejects.toThrow(/api_key.*azure_ad_token.*client_secret/);
  });

  it('returns the contract envelope with tool calls', async () => {
    mock.setBehavior('/az', {
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Seattle' } }],
    });
    const res = await chat(azureAdapter, target(), { tools: TOOLS });
    expect(res.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        function_call: null,
        tool_calls: [
          {
            index: 0,
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Seattle"}' },
          },
        ],
      },
    });
    expect(res.choices[0]?.message.provider_specific_fields?.content_filter_results).toBeDefined();
  });

  it('streams over the same URL, skipping Azure’s prompt-filter chunk, with one id and usage last', async () => {
    mock.setBehavior('/az', { content: 'Hello there from Azure.' });
    const chunks = await stream(azureAdapter, target());
    expect(mock.requests[0]?.path).toBe(chatPath);
    expect(mock.requests[0]?.headers['api-key']).toBe(KEY);
    expect(mock.requests[0]?.body).toEqual({
      model: 'my-gpt4o',
      messages: USER,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0]?.id).not.toBe('');
    expect(joined(chunks, 'content')).toBe('Hello there from Azure.');
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
  });
  it('streams tool calls as a header then the arguments', async () => {
    mock.setBehavior('/az', {
      toolCalls: [{ id: 'call_7', name: 'get_weather', arguments: { city: 'Lyon' } }],
    });
    const chunks = await stream(azureAdapter, target(), { tools: TOOLS });
    expect(chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])).toEqual([
      { index: 0, id: 'call_7', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":"Lyon"}' } },
    ]);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('tool_calls');
  });
});

describe('Azure answers replayed from the REST reference', () => {
  it('keeps content_filter_results and prompt_filter_results in provider_specific_fields', () => {
    const res = azureAdapter.chat.parse(fixtureJson('azure', 'chat-completion.json'), target(), {
      model: 'g',
      messages: USER,
    });
    expect(res.model).toBe('gpt-4o-2024-08-06');
    expect(res.choices[0]?.message.tool_calls?.[0]?.function.name).toBe('get_current_weather');
    expect(res.choices[0]?.message.provider_specific_fields).toEqual({
      content_filter_results: expect.objectContaining({ violence: { filtered: false, severity: 'safe' } }),
      prompt_filter_results: [expect.objectContaining({ prompt_index: 0 })],
    });
  });

  it('returns a completion Azure filtered as a normal result with finish_reason content_filter', () => {
    const res = azureAdapter.chat.parse(
      fixtureJson('azure', 'chat-completion-content-filtered.json'),
      target(),
      {
        model: 'g',
        messages: USER,
      },
    );
    expect(res.choices[0]?.finish_reason).toBe('content_filter');
    expect(res.choices[0]?.message.content).toBe('The duel began at dawn, and');
  });

  it('returns the mock’s filtered completion as a normal result too', async () => {
    mock.setBehavior('/az', {
      content: 'one two three four five six',
      openaiVariant: { contentFilter: 'completion' },
    });
    const res = await chat(azureAdapter, target());
    expect(res.choices[0]?.finish_reason).toBe('content_filter');
    expect(res.choices[0]?.message.content).toBe('one two three ');
  });

  it('replays a recorded stream whose first chunk has no id and no choices', async () => {
    mock.setBehavior('/az', sseRaw('azure', 'stream.sse'));
    const chunks = await stream(azureAdapter, target());
    expect(chunks.every((c) => c.id === 'chatcmpl-AO5gKcXy1ZlPq4RrT8vWm3nB0sJdE')).toBe(true);
    expect(chunks.every((c) => c.model === 'gpt-4o-2024-08-06' && c.created === 1730230950)).toBe(true);
    expect(joined(chunks, 'content')).toBe('Hello there!');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 3 } });
  });
});

describe('Azure through the Router', () => {
  it('routes azure/<deployment> with api_version and api-key, for chat and embeddings', async () => {
    const r = new Router([
      {
        model_name: 'gpt4o',
        svc_params: {
          model: 'azure/prod-gpt4o',
          api_base: `${mock.url}/rt`,
          api_key: KEY,
          api_version: '2024-06-01',
        },
      },
      {
        model_name: 'embed',
        svc_params: {
          model: 'azure/prod-embed',
          api_base: `${mock.url}/rt`,
          api_key: KEY,
          api_version: '2024-06-01',
        },
        model_info: { mode: 'embedding' },
      },
    ]);
    const res = await r.acompletion({ model: 'gpt4o', messages: USER });
    await r.aembedding({ model: 'embed', input: 'hello' });
    await r.close();
    expect(res._hidden_params.custom_llm_provider).toBe('azure');
    expect(mock.requests.map((q) => q.path)).toEqual([
      '/rt/openai/deployments/prod-gpt4o/chat/completions?api-version=2024-06-01',
      '/rt/openai/deployments/prod-embed/embeddings?api-version=2024-06-01',
    ]);
    expect(mock.requests[0]?.headers['api-key']).toBe(KEY);
  });
});
