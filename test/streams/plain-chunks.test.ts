import { afterEach, describe, expect, it } from 'vitest';
import { type ChatCompletionChunk, Router } from '../../src/index.js';
import { newChunk, oneChoice } from '../../src/providers/shared/chunk-objects.js';
import { KEYS } from '../fixtures/bedrock/load.js';
import { useMock } from '../helpers.js';
import { API_KEY } from '../providers/gemini-helpers.js';

// Chunks are made by constructors (so that V8 cannot pretenure them): to their readers they must
// still be the plain objects a literal makes, fields in OpenAI's order.

const mock = useMock();
let router: Router | undefined;
afterEach(() => router?.close());

async function chunksOf(model: string, params: Record<string, unknown>): Promise<ChatCompletionChunk[]> {
  mock.setBehavior('/p', { content: 'one two', usage: { prompt_tokens: 3, completion_tokens: 2 } });
  router = new Router([
    { model_name: 'm', svc_params: { model, api_base: `${mock.url}/p`, api_key: 'sk-test', ...params } },
  ]);
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of await router.acompletion({
    model: 'm',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
  }))
    chunks.push(chunk);
  return chunks;
}

describe('stream chunks are plain objects', () => {
  it.each([
    ['openai', 'openai/gpt-4o', {}],
    ['anthropic', 'anthropic/claude-sonnet-4-5', {}],
    ['gemini', 'gemini/gemini-2.5-flash', { api_key: API_KEY }],
    ['bedrock', 'bedrock/anthropic.claude-3-7-sonnet-20250219-v1:0', KEYS],
  ])('%s: every chunk and choice has Object.prototype, fields in OpenAI order', async (_, model, params) => {
    const chunks = await chunksOf(model, params);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(Object.getPrototypeOf(chunk)).toBe(Object.prototype);
      expect(Object.keys(chunk).slice(0, 4)).toEqual(['id', 'object', 'created', 'model']);
      for (const choice of chunk.choices) {
        expect(Object.getPrototypeOf(choice)).toBe(Object.prototype);
        expect(Object.keys(choice)).toEqual(['index', 'delta', 'finish_reason']);
      }
    }
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('one two');
  });
});

describe('newChunk', () => {
  it('serialises as the literal it replaces', () => {
    const chunk = newChunk('c1', 7, 'gpt', oneChoice(0, { content: 'x' }, null));
    expect(JSON.stringify(chunk)).toBe(
      JSON.stringify({
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 7,
        model: 'gpt',
        choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }],
      }),
    );
    expect(chunk).toStrictEqual({
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 7,
      model: 'gpt',
      choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }],
    });
  });

  it('sets system_fingerprint before the choices only when one is given', () => {
    expect('system_fingerprint' in newChunk('c', 1, 'm', [])).toBe(false);
    expect(Object.keys(newChunk('c', 1, 'm', [], null))).toEqual([
      'id',
      'object',
      'created',
      'model',
      'system_fingerprint',
      'choices',
    ]);
  });
});
