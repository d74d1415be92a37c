import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk } from '../../src/index.js';
import { openAIChunks } from '../../src/providers/openai-compatible/stream-transform.js';
import type { ProviderTarget } from '../../src/providers/shared/provider-adapter.js';

// Most deltas of a stream are `{"content":"..."}` and are handed out as parsed; any delta with
// something to change is rebuilt. Either way a reader sees the same normalised delta.

const target: ProviderTarget = {
  provider: 'openai',
  model: 'gpt-4o',
  modelId: 'dep',
  env: {},
  secrets: [],
  apiBase: 'http://127.0.0.1:9/v1',
  apiKey: 'sk-test',
  apiVersion: undefined,
  params: { model: 'openai/gpt-4o' },
};

/** The chunks of a stream whose events carry these choices (one event each, then a finish and [DONE]). */
async function chunksOf(...choices: unknown[][]): Promise<ChatCompletionChunk[]> {
  const event = (list: unknown[]) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: list })}\n\n`;
  const finish = [{ index: 0, delta: {}, finish_reason: 'stop' }];
  const body = (async function* () {
    yield Buffer.from(`${[...choices, finish].map(event).join('')}data: [DONE]\n\n`);
  })();
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of openAIChunks(body, target)) chunks.push(chunk);
  return chunks;
}

/** One choice at index 0 with this delta. */
const one = (delta: unknown, finish: string | null = null) => [
  { index: 0, delta, logprobs: null, finish_reason: finish },
];

const deltas = (chunks: ChatCompletionChunk[]) => chunks.map((chunk) => chunk.choices[0]?.delta);

describe('OpenAI stream deltas', () => {
  it('hands out a delta of text alone as sent, the first with the role before it', async () => {
    const chunks = await chunksOf(one({ content: 'Hel' }), one({ content: 'lo' }));
    expect(deltas(chunks)).toStrictEqual([{ role: 'assistant', content: 'Hel' }, { content: 'lo' }, {}]);
    expect(chunks.map((chunk) => Object.keys(chunk.choices[0]!))).toStrictEqual(
      Array(3).fill(['index', 'delta', 'finish_reason']),
    );
  });

  it('drops a role repeated mid-stream from a delta of text', async () => {
    const chunks = await chunksOf(one({ content: 'Hel' }), one({ role: 'assistant', content: 'lo' }));
    expect(deltas(chunks)).toStrictEqual([{ role: 'assistant', content: 'Hel' }, { content: 'lo' }, {}]);
  });

  it('drops null fields and empty reasoning from a delta mid-stream', async () => {
    const chunks = await chunksOf(
      one({ content: 'a' }),
      one({ content: 'b', refusal: null, reasoning_content: '' }),
      one({ content: 'c', tool_calls: null, function_call: null }),
    );
    expect(deltas(chunks).slice(1)).toStrictEqual([{ content: 'b' }, { content: 'c' }, {}]);
  });

  it('renames reasoning to reasoning_content and moves reasoning_details mid-stream', async () => {
    const details = [{ type: 'reasoning.text', text: 'hm' }];
    const chunks = await chunksOf(
      one({ content: 'a' }),
      one({ reasoning: 'hm' }),
      one({ reasoning_details: details, content: 'b' }),
    );
    expect(deltas(chunks).slice(1, 3)).toStrictEqual([
      { reasoning_content: 'hm' },
      { content: 'b', provider_specific_fields: { reasoning_details: details } },
    ]);
  });

  it('leaves out a delta key named __proto__, and gives no delta a prototype from it', async () => {
    const raw = `{"content":"a","__proto__":{"polluted":true}}`;
    const chunks = await chunksOf(one({ content: 'x' }), one(JSON.parse(raw)));
    const delta = chunks[1]!.choices[0]!.delta as Record<string, unknown>;
    expect(delta).toStrictEqual({ content: 'a' });
    expect(Object.getPrototypeOf(delta)).toBe(Object.prototype);
    expect(delta.polluted).toBeUndefined();
  });

  it('gives each chunk a choices list of its own', async () => {
    const chunks = await chunksOf(one({ content: 'a' }), one({ content: 'b' }));
    expect(new Set(chunks.map((chunk) => chunk.choices)).size).toBe(chunks.length);
    expect(chunks.map((chunk) => chunk.choices.length)).toStrictEqual([1, 1, 1]);
  });
});
