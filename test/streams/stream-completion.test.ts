import { describe, expect, it } from 'vitest';
import { APIConnectionError } from '../../src/index.js';
import { eventFrame } from '../fixtures/bedrock/load.js';
import { streamSuite, textOf } from './helpers.js';

const suite = streamSuite();

const sse = (chunks: unknown[]) => ({
  raw: {
    headers: { 'content-type': 'text/event-stream' },
    body: chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`),
  },
});

const openaiChunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices,
  ...extra,
});

describe('a stream that ends cleanly after its finish, without its terminal event', () => {
  it('openai: is complete without data: [DONE], usage included', async () => {
    suite.mock.setBehavior('/s', { content: 'all of it', stream: { omitTerminal: true } });
    const { error, chunks } = await suite.run('openai');
    expect(error).toBeUndefined();
    expect(textOf(chunks)).toBe('all of it');
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)?.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('anthropic: is complete after message_delta with stop_reason, without message_stop', async () => {
    suite.mock.setBehavior('/s', { content: 'all of it', stream: { omitTerminal: true } });
    const { error, chunks } = await suite.run('anthropic');
    expect(error).toBeUndefined();
    expect(textOf(chunks)).toBe('all of it');
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)?.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('gemini: is complete after the fragment carrying finishReason', async () => {
    suite.mock.setBehavior('/s', { content: 'all of it' });
    const { error, chunks } = await suite.run('gemini');
    expect(error).toBeUndefined();
    expect(textOf(chunks)).toBe('all of it');
  });

  it('bedrock: is complete after messageStop, without metadata', async () => {
    suite.mock.setBehavior('/s', {
      raw: {
        headers: { 'content-type': 'application/vnd.amazon.eventstream' },
        body: [
          eventFrame('messageStart', { role: 'assistant' }),
          eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'all of it' } }),
          eventFrame('messageStop', { stopReason: 'end_turn' }),
        ],
      },
    });
    const { error, chunks } = await suite.run('bedrock');
    expect(error).toBeUndefined();
    expect(textOf(chunks)).toBe('all of it');
  });
});

describe('a stream that ends cleanly before its finish', () => {
  it.each(['openai', 'anthropic', 'gemini', 'bedrock'] as const)(
    '%s: fails with a retryable APIConnectionError',
    async (format) => {
      suite.mock.setBehavior('/s', { content: 'one two three four five six', stream: { endAfter: 2 } });
      const { error } = await suite.run(format);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect((error as APIConnectionError).retryable).toBe(true);
      expect((error as Error).message).toContain('stream ended before it finished');
    },
  );

  it('openai: waits for the finish of every choice it showed', async () => {
    suite.mock.setBehavior(
      '/s',
      sse([
        openaiChunk([
          { index: 0, delta: { role: 'assistant', content: 'a' }, finish_reason: null },
          { index: 1, delta: { role: 'assistant', content: 'b' }, finish_reason: null },
        ]),
        openaiChunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
      ]),
    );
    const { error } = await suite.run('openai');
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain('(no finish_reason)');
  });

  it('openai: is complete once every choice finished', async () => {
    suite.mock.setBehavior(
      '/s',
      sse([
        openaiChunk([
          { index: 0, delta: { role: 'assistant', content: 'a' }, finish_reason: null },
          { index: 1, delta: { role: 'assistant', content: 'b' }, finish_reason: null },
        ]),
        openaiChunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
        openaiChunk([{ index: 1, delta: {}, finish_reason: 'length' }]),
      ]),
    );
    const { error, chunks } = await suite.run('openai');
    expect(error).toBeUndefined();
    expect(chunks.flatMap((c) => c.choices.map((ch) => ch.finish_reason)).filter(Boolean)).toEqual([
      'stop',
      'length',
    ]);
  });

  it.each(['openai', 'anthropic', 'gemini', 'bedrock'] as const)(
    '%s: a connection cut mid-stream stays an APIConnectionError',
    async (format) => {
      suite.mock.setBehavior('/s', { content: 'one two three four five six', stream: { cutAfter: 2 } });
      const { error } = await suite.run(format);
      expect(error).toBeInstanceOf(APIConnectionError);
    },
  );
});
