import { afterEach, describe, expect, it } from 'vitest';
import { type ChatCompletionChunk, Router } from '../../src/index.js';
import { openAIChunks } from '../../src/providers/openai-compatible/stream-transform.js';
import type { ProviderTarget } from '../../src/providers/shared/provider-adapter.js';
import { parseSse } from '../../src/providers/shared/sse.js';
import { bedrockTarget, KEYS } from '../fixtures/bedrock/load.js';
import { useMock } from '../helpers.js';
import { API_KEY } from '../providers/gemini-helpers.js';

// A stream's chunks, choices, text and reasoning deltas, iterator results and SSE events are made by constructors
// (so that V8 cannot pretenure them): to their readers they must still be the plain objects a literal
// makes, with their fields in the order they had.

const mock = useMock();
let router: Router | undefined;
afterEach(async () => {
  await router?.close();
  router = undefined;
});

function routerFor(model: string, params: Record<string, unknown>): Router {
  mock.setBehavior('/p', {
    reasoning: 'think first',
    content: 'one two',
    usage: { prompt_tokens: 3, completion_tokens: 2 },
  });
  router = new Router([
    { model_name: 'm', svc_params: { model, api_base: `${mock.url}/p`, api_key: 'sk-test', ...params } },
  ]);
  return router;
}

const streamOf = (r: Router, extra: Record<string, unknown> = {}) =>
  r.acompletion({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true, ...extra });

async function chunksOf(
  model: string,
  params: Record<string, unknown>,
  extra: Record<string, unknown>,
): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of await streamOf(routerFor(model, params), extra)) chunks.push(chunk);
  return chunks;
}

/** Whether every object in `value`, nested ones included, is a plain object or an array. */
function plainThroughout(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype) return false;
  return Object.values(value).every(plainThroughout);
}

const KEYS_BEFORE_CHOICES = ['id', 'object', 'created', 'model'];

describe('stream chunks are plain objects, fields in OpenAI order', () => {
  it.each([
    ['openai', 'openai/gpt-4o', {}, true, {}],
    ['anthropic', 'anthropic/claude-sonnet-4-5', {}, false, {}],
    // Gemini sends its thoughts when asked to
    ['gemini', 'gemini/gemini-2.5-flash', { api_key: API_KEY }, true, { reasoning_effort: 'low' }],
    ['bedrock', 'bedrock/anthropic.claude-3-7-sonnet-20250219-v1:0', KEYS, false, {}],
  ])('%s', async (_, model, params, fingerprinted, extra) => {
    const chunks = await chunksOf(model, params, extra);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('one two');
    expect(chunks.map((c) => c.choices[0]?.delta.reasoning_content ?? '').join('')).toBe('think first');
    expect(chunks.at(-1)?.usage?.prompt_tokens).toBe(3);
    // the fingerprint is the upstream's, where it sends one (OpenAI's usage-only chunk has none)
    expect(Object.keys(chunks[0]!).includes('system_fingerprint')).toBe(fingerprinted);
    for (const chunk of chunks) {
      expect(plainThroughout(chunk)).toBe(true);
      expect(Object.keys(chunk)).toEqual([
        ...KEYS_BEFORE_CHOICES,
        ...('system_fingerprint' in chunk ? ['system_fingerprint'] : []),
        'choices',
        ...(chunk.usage ? ['usage'] : []),
      ]);
      for (const choice of chunk.choices)
        expect(Object.keys(choice)).toEqual(['index', 'delta', 'finish_reason']);
    }
  });

  it('an OpenAI-compatible chunk of several choices, and tool-call pieces in one or several, are plain too', async () => {
    const event = (choices: unknown[]) =>
      `data: ${JSON.stringify({ id: 'c', created: 1, model: 'gpt', choices })}\n\n`;
    const body = [
      event([
        { index: 0, delta: { role: 'assistant', content: 'a' }, finish_reason: null },
        { index: 1, delta: { role: 'assistant', content: 'b' }, finish_reason: null },
      ]),
      event([
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, id: 't1', function: { name: 'f', arguments: '{}' } }] },
          finish_reason: 'tool_calls',
        },
      ]),
      event([
        { index: 0, delta: {}, finish_reason: null },
        {
          index: 1,
          delta: { tool_calls: [{ index: 0, id: 't2', function: { name: 'g', arguments: '{}' } }] },
          finish_reason: 'tool_calls',
        },
      ]),
    ].join('');
    const bytes = (async function* () {
      yield Buffer.from(body);
    })();
    const target: ProviderTarget = { ...bedrockTarget(undefined), provider: 'openai', model: 'gpt' };
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of openAIChunks(bytes, target)) chunks.push(chunk);
    expect(chunks.map((c) => c.choices.length)).toEqual([2, 1, 1, 2]);
    expect(chunks.every(plainThroughout)).toBe(true);
  });
});

describe('what a stream hands out around its chunks is plain too', () => {
  it('iterator results: { done, value } with Object.prototype', async () => {
    const chunks = (await streamOf(routerFor('openai/gpt-4o', {})))[Symbol.asyncIterator]();
    const first = await chunks.next();
    const second = await chunks.next();
    for (const result of [first, second]) {
      expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
      expect(Object.keys(result)).toEqual(['done', 'value']);
    }
    await chunks.return?.();
  });

  it('parseSse events: { event, data } with Object.prototype', async () => {
    const body = (async function* () {
      yield Buffer.from('event: ping\ndata: {}\n\ndata: x\n\n');
    })();
    const events = [];
    for await (const event of parseSse(body)) events.push(event);
    expect(events).toStrictEqual([
      { event: 'ping', data: '{}' },
      { event: undefined, data: 'x' },
    ]);
    expect(events.map(Object.getPrototypeOf)).toEqual([Object.prototype, Object.prototype]);
  });
});
