import { describe, expect, it } from 'vitest';
import { InternalServerError } from '../../src/index.js';
import { anthropicChunks } from '../../src/providers/anthropic/stream-transform.js';
import { geminiChunks } from '../../src/providers/gemini/stream-transform.js';
import { openAIChunks } from '../../src/providers/openai-compatible/stream-transform.js';
import type { ProviderTarget } from '../../src/providers/shared/provider-adapter.js';
import { parseStreamJson } from '../../src/providers/shared/stream-json.js';
import { bedrockTarget } from '../fixtures/bedrock/load.js';

const target: ProviderTarget = { ...bedrockTarget(undefined), provider: 'gemini', model: 'gemini-2.5-flash' };

describe('parseStreamJson', () => {
  it('returns the object a JSON event holds', () => {
    expect(parseStreamJson('{"type":"ping"}', target, 'an event')).toEqual({ type: 'ping' });
  });

  it('returns undefined for JSON that is not an object', () => {
    expect(parseStreamJson('[1,2]', target, 'an event')).toBeUndefined();
  });

  it('throws InternalServerError naming the event for text that is not JSON', () => {
    expect(() => parseStreamJson('{oops', target, 'a frame')).toThrow(InternalServerError);
    expect(() => parseStreamJson('{oops', target, 'a frame')).toThrow(
      'gemini/gemini-2.5-flash streamed a frame that is not JSON',
    );
  });
});

describe('stream transforms on an event that is not JSON', () => {
  const body = async function* (text: string): AsyncIterable<Uint8Array> {
    yield new TextEncoder().encode(text);
  };
  const drain = async (chunks: AsyncIterable<unknown>) => {
    for await (const _ of chunks);
  };
  const broken = 'data: {not json\n\n';

  it.each([
    ['gemini', () => geminiChunks(body(broken), target)],
    ['anthropic', () => anthropicChunks(body(broken), { ...target, provider: 'anthropic' })],
    ['openai', () => openAIChunks(body(broken), { ...target, provider: 'openai' })],
  ])('%s throws InternalServerError', async (_name, chunks) => {
    await expect(drain(chunks())).rejects.toThrow(InternalServerError);
    await expect(drain(chunks())).rejects.toThrow(/streamed (an event|a frame) that is not JSON/);
  });
});
