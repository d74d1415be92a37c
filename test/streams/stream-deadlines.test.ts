import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../../src/index.js';
import { openaiAdapter } from '../../src/providers/openai/index.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import { invokeStream } from '../../src/providers/shared/invoke-stream.js';
import { FORMATS, OPTIONS, REQUEST, streamSuite, targetOf, textOf } from './helpers.js';

const suite = streamSuite();

describe('stream_timeout', () => {
  it('fails a stream whose upstream sends nothing at all within stream_timeout of the start', async () => {
    suite.mock.setBehavior('/s', { delayMs: 1500 });
    const { error, ms } = await suite.run('openai', { timeoutMs: 5000, streamTimeoutMs: 150 });
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(
      "openai/gpt-4o request timed out: no event within stream_timeout (0.15 s) of the request's start",
    );
    expect(ms).toBeLessThan(1000);
  });

  it('fails a stream that sends its headers and then no event within stream_timeout of the start', async () => {
    suite.mock.setBehavior('/s', { stream: { stallAfter: 0 } });
    const { error, ms } = await suite.run('openai', { timeoutMs: 5000, streamTimeoutMs: 150 });
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain(
      "no event within stream_timeout (0.15 s) of the request's start",
    );
    expect(ms).toBeLessThan(1000);
  });

  it.each(FORMATS)('%s: fails a stream that drips bytes without completing an event', async (format) => {
    suite.mock.setBehavior('/s', { stream: { dripMs: 10 } });
    const { error, ms, chunks } = await suite.run(format, { streamTimeoutMs: 200 });
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain('stream_timeout (0.2 s)');
    expect(chunks).toEqual([]);
    expect(ms).toBeLessThan(1000);
  });

  it('fails a stream whose events stop coming for stream_timeout, naming the gap', async () => {
    suite.mock.setBehavior('/s', { stream: { stallAfter: 2 } });
    const { error, chunks } = await suite.run('openai', { streamTimeoutMs: 150 });
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(
      'openai/gpt-4o stream timed out: no event for stream_timeout (0.15 s) after the previous one',
    );
    expect(textOf(chunks)).toBe('Hello from the ');
  });

  it.each(FORMATS)(
    '%s: keeps a stream alive while every event comes within stream_timeout',
    async (format) => {
      const content = 'a b c d e f g h i j k l';
      suite.mock.setBehavior('/s', { content, stream: { chunkDelayMs: 50 } });
      const { error, chunks, ms } = await suite.run(format, { streamTimeoutMs: 150 });
      expect(error).toBeUndefined();
      expect(textOf(chunks)).toBe(content);
      expect(ms).toBeGreaterThan(150);
    },
  );
});

describe('first_token_timeout', () => {
  it.each(['openai', 'anthropic', 'bedrock'] as const)(
    '%s: fails before yielding any chunk when only a role chunk came within first_token_timeout',
    async (format) => {
      suite.mock.setBehavior('/s', { stream: { stallAfter: 1 } });
      const { error, chunks, ms } = await suite.run(format, { firstTokenTimeoutMs: 150 });
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as Error).message).toContain('no first token within first_token_timeout (0.15 s)');
      expect(chunks).toEqual([]);
      expect(ms).toBeLessThan(1000);
    },
  );

  it('rejects the first read of the stream, where the router can still fail over', async () => {
    suite.mock.setBehavior('/s', { stream: { stallAfter: 1 } });
    const stream = await invokeStream(
      suite.http,
      openaiAdapter,
      openaiAdapter.chatStream,
      REQUEST,
      targetOf(suite.mock, 'openai'),
      { ...OPTIONS, firstTokenTimeoutMs: 100 },
    );
    await expect(stream[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(TimeoutError);
  });

  it('does not count a role-only chunk as the first token', async () => {
    suite.mock.setBehavior('/s', { stream: { chunkDelayMs: 400 } });
    const { error, chunks } = await suite.run('openai', { firstTokenTimeoutMs: 150 });
    expect(error).toBeInstanceOf(TimeoutError);
    expect(chunks).toEqual([]);
  });

  it('counts reasoning as the first token', async () => {
    suite.mock.setBehavior('/s', {
      reasoning: 'a b c d e f g h i',
      content: 'done',
      stream: { chunkDelayMs: 80 },
    });
    const { error, chunks } = await suite.run('openai', { firstTokenTimeoutMs: 250 });
    expect(error).toBeUndefined();
    expect(textOf(chunks)).toBe('done');
  });

  it('yields the role chunk first, together with the first content chunk', async () => {
    suite.mock.setBehavior('/s', { content: 'one two three four', stream: { chunkDelayMs: 100 } });
    const { chunks, firstChunkMs } = await suite.run('openai', { firstTokenTimeoutMs: 1000 });
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks[1]?.choices[0]?.delta.content).toBe('one two three ');
    expect(firstChunkMs).toBeGreaterThanOrEqual(90);
  });

  it('no longer applies once the first token came', async () => {
    suite.mock.setBehavior('/s', { content: 'a b c d e', stream: { chunkDelayMs: 60 } });
    const { error, chunks } = await suite.run('openai', { firstTokenTimeoutMs: 100 });
    expect(error).toBeUndefined();
    expect(textOf(chunks)).toBe('a b c d e');
  });
});

describe('stream_total_timeout', () => {
  it('fails a steady stream that has not finished within stream_total_timeout', async () => {
    suite.mock.setBehavior('/s', { content: 'a b c d e f g h i j', stream: { chunkDelayMs: 50 } });
    const { error, chunks, ms } = await suite.run('openai', {
      streamTimeoutMs: 150,
      streamTotalTimeoutMs: 250,
    });
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(
      'openai/gpt-4o stream timed out: not finished within stream_total_timeout (0.25 s)',
    );
    expect(textOf(chunks).length).toBeGreaterThan(0);
    expect(ms).toBeLessThan(700);
  });

  it('lets a stream that finishes within stream_total_timeout through', async () => {
    suite.mock.setBehavior('/s', { content: 'a b c', stream: { chunkDelayMs: 20 } });
    const { error } = await suite.run('openai', { streamTotalTimeoutMs: 1000 });
    expect(error).toBeUndefined();
  });
});

describe('limits longer than a Node timer takes', () => {
  const huge = {
    timeoutMs: 2 ** 31 + 10,
    streamTimeoutMs: 2 ** 32,
    firstTokenTimeoutMs: 1e12,
    streamTotalTimeoutMs: 1e13,
  };

  it('never fire early on a stream', async () => {
    suite.mock.setBehavior('/s', { delayMs: 30, stream: { chunkDelayMs: 10 } });
    const { error, chunks } = await suite.run('openai', huge);
    expect(error).toBeUndefined();
    expect(chunks.length).toBeGreaterThan(1);
  });

  it('never fire early on a plain call', async () => {
    suite.mock.setBehavior('/s', { delayMs: 30, content: 'fine' });
    const answer = await invokeJson(
      suite.http,
      openaiAdapter,
      openaiAdapter.chat,
      REQUEST,
      targetOf(suite.mock, 'openai'),
      huge,
    );
    expect(answer.choices[0]?.message.content).toBe('fine');
  });
});

describe('timeout on a plain call', () => {
  it('names timeout and its value in seconds', async () => {
    suite.mock.setBehavior('/s', { fault: 'hang' });
    const error = await invokeJson(
      suite.http,
      openaiAdapter,
      openaiAdapter.chat,
      REQUEST,
      targetOf(suite.mock, 'openai'),
      { timeoutMs: 100, streamTimeoutMs: 5000 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(
      'openai/gpt-4o request timed out: no answer within timeout (0.1 s)',
    );
  });
});
