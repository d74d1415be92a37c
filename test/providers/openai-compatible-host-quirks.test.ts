import { afterAll, describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/index.js';
import { BUILT_IN_PROVIDERS } from '../../src/providers/registry.js';
import type { ProviderAdapter } from '../../src/providers/shared/provider-adapter.js';
import { useMock } from '../helpers.js';
import { chat, closeHttp, OPTIONS, sentMessages, stream, targetOn, USER } from './openai-family-helpers.js';

const mock = useMock();
afterAll(async () => {
  await closeHttp();
});

const host = (name: string): ProviderAdapter => BUILT_IN_PROVIDERS.adapterFor(name)!;
const DROP = { ...OPTIONS, dropParams: true };
const NAMED = [{ role: 'user' as const, content: 'hi', name: 'alice' }];

/** The error of a call that must fail, and whether anything reached the mock. */
async function refusal(call: Promise<unknown>): Promise<{ error: unknown; sent: number }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, sent: mock.requests.length };
}

describe('Groq refuses logprobs, logit_bias, top_logprobs, n > 1 and messages[].name', () => {
  const groq = host('groq');
  const target = () => targetOn(mock, groq, 'llama-3.3-70b-versatile', '/groq');

  it('fails before sending, naming every refused field, without drop_params', async () => {
    const { error, sent } = await refusal(
      chat(groq, target(), { messages: NAMED, logprobs: true, top_logprobs: 2, logit_bias: { 1: 5 }, n: 2 }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toMatch(
      /groq\/llama-3\.3-70b-versatile does not support `logprobs`, `top_logprobs`, `logit_bias`, `n`, `messages\[\]\.name`; set `drop_params: true`/,
    );
    expect(sent).toBe(0);
  });

  it('sends the request without them with drop_params', async () => {
    await chat(
      groq,
      target(),
      { messages: NAMED, logprobs: true, logit_bias: { 1: 5 }, n: 2, seed: 7 },
      DROP,
    );
    expect(mock.requests[0]?.body).toEqual({
      model: 'llama-3.3-70b-versatile',
      messages: [{ role: 'user', content: 'hi' }],
      seed: 7,
    });
  });

  it('removes a neutral n: 1 and logprobs: false silently', async () => {
    await chat(groq, target(), { n: 1, logprobs: false });
    expect(mock.requests[0]?.body).toEqual({ model: 'llama-3.3-70b-versatile', messages: USER });
  });

  it('keeps name on a tool message', async () => {
    const messages = [
      { role: 'user' as const, content: 'weather?' },
      {
        role: 'assistant' as const,
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function' as const, function: { name: 'get_weather', arguments: '{}' } },
        ],
      },
      { role: 'tool' as const, tool_call_id: 'c1', name: 'get_weather', content: 'sunny' },
    ];
    await chat(groq, target(), { messages });
    expect(sentMessages(mock)?.[2]).toMatchObject({ role: 'tool', name: 'get_weather' });
  });
});

describe('Cerebras refuses the penalties, logit_bias, parallel_tool_calls and service_tier', () => {
  const cerebras = host('cerebras');
  const target = () => targetOn(mock, cerebras, 'gpt-oss-120b', '/cb');

  it('fails before sending without drop_params', async () => {
    const { error, sent } = await refusal(
      chat(cerebras, target(), { presence_penalty: 0.5, frequency_penalty: 0.2, parallel_tool_calls: false }),
    );
    expect((error as Error).message).toContain(
      'does not support `presence_penalty`, `frequency_penalty`, `parallel_tool_calls`',
    );
    expect(sent).toBe(0);
  });

  it('sends the request without them with drop_params', async () => {
    await chat(cerebras, target(), { presence_penalty: 0.5, service_tier: 'auto', temperature: 0.1 }, DROP);
    expect(mock.requests[0]?.body).toEqual({ model: 'gpt-oss-120b', messages: USER, temperature: 0.1 });
  });

  it('removes parallel_tool_calls: true (the default) silently', async () => {
    await chat(cerebras, target(), { parallel_tool_calls: true });
    expect(mock.requests[0]?.body).not.toHaveProperty('parallel_tool_calls');
  });
});

describe('Mistral’s own field names', () => {
  const mistral = host('mistral');
  const target = (params: Record<string, unknown> = {}) =>
    targetOn(mock, mistral, 'mistral-large-latest', '/mi', params);

  it('sends max_completion_tokens as max_tokens and seed as random_seed', async () => {
    await chat(mistral, target(), { max_completion_tokens: 300, seed: 42 });
    expect(mock.requests[0]?.body).toEqual({
      model: 'mistral-large-latest',
      messages: USER,
      max_tokens: 300,
      random_seed: 42,
    });
  });

  it('refuses messages[].name without drop_params and removes it with', async () => {
    const { error, sent } = await refusal(chat(mistral, target(), { messages: NAMED }));
    expect((error as Error).message).toContain('does not support `messages[].name`');
    expect(sent).toBe(0);
    await chat(mistral, target(), { messages: NAMED }, DROP);
    expect(mock.requests[0]?.body).toMatchObject({ messages: [{ role: 'user', content: 'hi' }] });
  });

  it('streams without stream_options and reads the usage of the last chunk', async () => {
    const chunk = (delta: object, extra: object = {}) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'mistral-large-latest', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
    const last = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'mistral-large-latest', choices: [{ index: 0, delta: { content: '' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } })}\n\n`;
    mock.setBehavior('/mi', {
      raw: {
        headers: { 'content-type': 'text/event-stream' },
        body: `${chunk({ role: 'assistant', content: 'Bon' })}${chunk({ content: 'jour' })}${last}data: [DONE]\n\n`,
      },
    });
    const chunks = await stream(mistral, target());
    expect(mock.requests[0]?.body).not.toHaveProperty('stream_options');
    expect(mock.requests[0]?.body).toMatchObject({ stream: true });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Bonjour');
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 2 });
  });
});

describe('Perplexity’s search', () => {
  const perplexity = host('perplexity');
  const target = () => targetOn(mock, perplexity, 'sonar-pro', '/px');

  it('passes the search fields through and keeps citations and search results', async () => {
    const answer = {
      id: 'p1',
      object: 'chat.completion',
      created: 1,
      model: 'sonar-pro',
      citations: ['https://example.com/a'],
      search_results: [{ title: 'A', url: 'https://example.com/a' }],
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Answer [1]' } }],
      usage: { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 },
    };
    mock.setBehavior('/px', {
      raw: { headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) },
    });
    const res = await chat(perplexity, target(), {
      search_domain_filter: ['example.com'],
      search_recency_filter: 'week',
    } as Record<string, unknown>);
    expect(mock.requests[0]?.body).toMatchObject({
      search_domain_filter: ['example.com'],
      search_recency_filter: 'week',
    });
    expect(res.choices[0]?.message.provider_specific_fields).toEqual({
      citations: ['https://example.com/a'],
      search_results: [{ title: 'A', url: 'https://example.com/a' }],
    });
  });
});
