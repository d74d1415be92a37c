import { describe, expect, it } from 'vitest';
import { ContinuationChunks } from '../../src/router/stream-resume/continuation-chunks.js';
import { continuationOf } from '../../src/router/stream-resume/continuation-request.js';
import { DeliveredAnswer } from '../../src/router/stream-resume/delivered-answer.js';
import type { ChatCompletionChunk, ChatCompletionRequest } from '../../src/types/index.js';

const chunk = (delta: ChatCompletionChunk['choices'][0]['delta'], extra: Partial<ChatCompletionChunk> = {}) =>
  ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o',
    choices: [{ index: 0, delta, finish_reason: null }],
    ...extra,
  }) as ChatCompletionChunk;

const request: ChatCompletionRequest = {
  model: 'gpt-4o',
  messages: [{ role: 'user', content: 'hi' }],
  stream: true,
  max_tokens: 100,
  reasoning_effort: 'high',
  mock_testing_fallbacks: true,
};

describe('a continuation request', () => {
  it('is the messages plus the text given as an assistant prefix, without its trailing whitespace', () => {
    const { request: next, skipWhitespace } = continuationOf(request, 'backup', 'Hello there, ', 4);
    expect(next.messages.at(-1)).toEqual({ role: 'assistant', content: 'Hello there,', prefix: true });
    expect(skipWhitespace).toBe(1);
    expect(next.model).toBe('backup');
  });

  it('keeps the caller’s max_tokens for the whole answer and leaves reasoning and testing faults out', () => {
    const { request: next } = continuationOf(request, 'gpt-4o', 'Hello', 30);
    expect(next.max_tokens).toBe(70);
    expect(next).not.toHaveProperty('reasoning_effort');
    expect(next).not.toHaveProperty('mock_testing_fallbacks');
  });

  it('extends a prefill the caller sent itself', () => {
    const own = {
      ...request,
      messages: [...request.messages, { role: 'assistant' as const, content: '{"a":' }],
    };
    const { request: next } = continuationOf(own, 'gpt-4o', ' 1,', 2);
    expect(next.messages).toHaveLength(2);
    expect(next.messages.at(-1)?.content).toBe('{"a": 1,');
  });
});

describe('continuation chunks', () => {
  const answer = new DeliveredAnswer(chunk({ role: 'assistant', content: 'Hello ' }));

  it('carry the stream’s id, no second role, and none of the whitespace the caller has', () => {
    const joining = new ContinuationChunks(answer, 1);
    const out = joining.next(
      chunk({ role: 'assistant', content: ' world' }, { id: 'other', model: 'claude' }),
    );
    expect(out).toMatchObject({
      id: 'chatcmpl-1',
      model: 'gpt-4o',
      choices: [{ delta: { content: 'world' } }],
    });
    expect(out?.choices[0]?.delta).not.toHaveProperty('role');
  });

  it('keep their usage back for the whole answer and drop what is left empty', () => {
    const joining = new ContinuationChunks(answer, 0);
    const usage = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 };
    expect(joining.next(chunk({ role: 'assistant', content: '' }))).toBeUndefined();
    expect(joining.next({ ...chunk({}), choices: [], usage })).toBeUndefined();
    expect(joining.usage).toEqual(usage);
  });
});

describe('a delivered answer', () => {
  it('is continuable after content text, not after a tool call began nor reasoning alone', () => {
    const cut = { retryable: true } as never;
    const text = new DeliveredAnswer(chunk({ content: 'Hi' }));
    const tool = new DeliveredAnswer(chunk({ content: 'Hi', tool_calls: [{ index: 0, id: 't' }] }));
    const thought = new DeliveredAnswer(chunk({ reasoning_content: 'hmm' }));
    expect([text, tool, thought].map((a) => a.continuable(cut))).toEqual([true, false, false]);
  });
});
