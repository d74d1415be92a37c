import type { ChatCompletion, ChatCompletionChunk, ChunkDelta, FinishReason, Usage } from '@svc/router';

/** One chunk of a hand-written stream. */
export function chunk(delta: ChunkDelta, finish: FinishReason | null = null): ChatCompletionChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'upstream-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

/** The trailing usage chunk (no choices) some providers send after the finish reason. */
export function usageChunk(prompt: number, completion: number): ChatCompletionChunk {
  const usage: Usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
  return { ...chunk({}), choices: [], usage };
}

export async function* streamOf(chunks: readonly ChatCompletionChunk[]): AsyncGenerator<ChatCompletionChunk> {
  for (const c of chunks) yield c;
}

/** Thinking, a signature in a later chunk, text, then a tool call whose arguments come in pieces. */
export const THINK_TEXT_TOOL: readonly ChatCompletionChunk[] = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ reasoning_content: 'Let me ', thinking_blocks: [{ type: 'thinking', thinking: 'Let me ' }] }),
  chunk({ reasoning_content: 'think.', thinking_blocks: [{ type: 'thinking', thinking: 'think.' }] }),
  chunk({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'sig-123' }] }),
  chunk({ content: 'Checking ' }),
  chunk({ content: 'the weather.' }),
  chunk({
    tool_calls: [
      { index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } },
    ],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  chunk({}, 'tool_calls'),
  usageChunk(12, 34),
];

/** A finished completion. */
export function completion(
  message: Partial<ChatCompletion['choices'][number]['message']>,
  finish: FinishReason,
): ChatCompletion {
  return {
    id: 'chatcmpl-9',
    object: 'chat.completion',
    created: 1,
    model: 'upstream-model',
    system_fingerprint: null,
    service_tier: null,
    choices: [
      {
        index: 0,
        finish_reason: finish,
        message: { role: 'assistant', content: null, tool_calls: null, function_call: null, ...message },
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}
