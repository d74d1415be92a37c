import { describe, expect, it } from 'vitest';
import { BadRequestError, type EmbeddingResponse } from '../../src/index.js';
import { openaiAdapter } from '../../src/providers/openai/index.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import type { CallOptions } from '../../src/providers/shared/provider-adapter.js';
import { OPTIONS, streamSuite, targetOf, textOf } from './helpers.js';

const suite = streamSuite();

function embed(options: Partial<CallOptions>): Promise<EmbeddingResponse> {
  return invokeJson(
    suite.http,
    openaiAdapter,
    openaiAdapter.embedding!,
    { model: 'g', input: ['a', 'b', 'c'] },
    targetOf(suite.mock, 'openai'),
    { ...OPTIONS, ...options },
  );
}

const TOO_LARGE = 'openai/gpt-4o answered more than max_response_bytes (1000 bytes)';

describe('max_response_bytes on a plain answer', () => {
  it('fails a body whose declared length is larger, with BadRequestError naming the limit', async () => {
    suite.mock.setBehavior('/s', { dimensions: 200 });
    const error = await embed({ maxResponseBytes: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).retryable).toBe(false);
    expect((error as Error).message).toContain(TOO_LARGE);
  });

  it('fails a body sent without a length once more than the limit has come', async () => {
    const huge = JSON.stringify({ object: 'list', data: [{ embedding: Array(5000).fill(0.5) }] });
    suite.mock.setBehavior('/s', {
      raw: {
        headers: { 'content-type': 'application/json' },
        body: [huge.slice(0, 10_000), huge.slice(10_000)],
      },
    });
    const error = await embed({ maxResponseBytes: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain(TOO_LARGE);
  });

  it('reads a body within the limit', async () => {
    suite.mock.setBehavior('/s', { dimensions: 4 });
    const answer = await embed({ maxResponseBytes: 10_000 });
    expect(answer.data).toHaveLength(3);
  });
});

describe('max_response_bytes on a stream', () => {
  it('fails a stream once its bytes pass the limit, after the chunks within it', async () => {
    const content = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    suite.mock.setBehavior('/s', { content });
    const { error, chunks } = await suite.run('openai', { maxResponseBytes: 1000 });
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain(TOO_LARGE);
    expect(textOf(chunks).length).toBeLessThan(content.length);
  });

  it('reads a stream within the limit', async () => {
    suite.mock.setBehavior('/s', { content: 'short' });
    const { error, chunks } = await suite.run('anthropic', { maxResponseBytes: 100_000 });
    expect(error).toBeUndefined();
    expect(textOf(chunks)).toBe('short');
  });
});
