import { randomUUID } from 'node:crypto';
import type { ChatCompletion, ChatCompletionChunk, TextCompletion } from '../types/index.js';

// rough: a mock has no tokenizer-exact usage, and does not need one
const tokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

/** A chat completion answering `content`, as if `model` had. */
export function mockChatCompletion(content: string, model: string): ChatCompletion {
  const completion = tokens(content);
  return {
    id: `chatcmpl-mock-${randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        message: { role: 'assistant', content, tool_calls: null, function_call: null },
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: completion, total_tokens: completion + 1 },
    service_tier: null,
  };
}

/** The same answer as a stream: a role chunk, the content, a finish chunk with usage. */
export async function* mockChatChunks(content: string, model: string): AsyncGenerator<ChatCompletionChunk> {
  const id = `chatcmpl-mock-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (
    delta: ChatCompletionChunk['choices'][0]['delta'],
    finish: 'stop' | null,
  ): ChatCompletionChunk => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  yield chunk({ role: 'assistant', content: '' }, null);
  yield chunk({ content }, null);
  const completion = tokens(content);
  yield {
    ...chunk({}, 'stop'),
    usage: { prompt_tokens: 1, completion_tokens: completion, total_tokens: completion + 1 },
  };
}

/** A legacy text completion answering `content`. */
export function mockTextCompletion(content: string, model: string): TextCompletion {
  const completion = tokens(content);
  return {
    id: `cmpl-mock-${randomUUID()}`,
    object: 'text_completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, text: content, finish_reason: 'stop', logprobs: null }],
    usage: { prompt_tokens: 1, completion_tokens: completion, total_tokens: completion + 1 },
  };
}
