import type { ChatCompletion, ChatCompletionChunk, ChunkDelta, FinishReason } from '../../src/types/chat.js';

/** One chunk of a hand-written chat stream, for choice 0. */
export function delta(piece: ChunkDelta, finish: FinishReason | null = null): ChatCompletionChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'upstream',
    choices: [{ index: 0, delta: piece, finish_reason: finish }],
  };
}

/** The usage chunk (no choices) a stream asked for with `include_usage` ends with. */
export function usage(prompt: number, completion: number, reasoning = 0): ChatCompletionChunk {
  return {
    ...delta({}),
    choices: [],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      completion_tokens_details: { reasoning_tokens: reasoning },
    },
  };
}

/** A chat completion whose first choice is `message` (over a plain empty answer). */
export function completion(
  message: Partial<ChatCompletion['choices'][number]['message']>,
  finish: FinishReason = 'stop',
): ChatCompletion {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'upstream',
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        finish_reason: finish,
        message: { role: 'assistant', content: null, tool_calls: null, function_call: null, ...message },
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 },
    service_tier: null,
  };
}
