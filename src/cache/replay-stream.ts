import type { ChatCompletion, ChatCompletionChunk, ChunkDelta } from '../types/index.js';

/**
 * A cached chat completion as the stream it would have been: a role chunk, one chunk per choice with its
 * reasoning, thinking blocks, content and tool calls, one finish chunk per choice, then the usage chunk.
 * `accumulateChunks` of these chunks gives the completion back. Pure.
 */
export function replayChunks(completion: ChatCompletion): ChatCompletionChunk[] {
  const base = {
    id: completion.id,
    object: 'chat.completion.chunk' as const,
    created: completion.created,
    model: completion.model,
  };
  const chunk = (
    index: number,
    delta: ChunkDelta,
    finish: ChatCompletionChunk['choices'][0]['finish_reason'] = null,
  ) => ({
    ...base,
    choices: [{ index, delta, finish_reason: finish }],
  });
  const chunks: ChatCompletionChunk[] = [];
  for (const choice of completion.choices) {
    const { message } = choice;
    chunks.push(chunk(choice.index, { role: 'assistant', content: '' }));
    const delta: ChunkDelta = {};
    if (message.reasoning_content) delta.reasoning_content = message.reasoning_content;
    if (message.thinking_blocks?.length) delta.thinking_blocks = message.thinking_blocks;
    if (message.content) delta.content = message.content;
    if (message.tool_calls?.length) {
      delta.tool_calls = message.tool_calls.map((call, index) => ({
        index,
        id: call.id,
        type: 'function' as const,
        function: { name: call.function.name, arguments: call.function.arguments },
      }));
    }
    if (message.provider_specific_fields) delta.provider_specific_fields = message.provider_specific_fields;
    if (Object.keys(delta).length > 0) chunks.push(chunk(choice.index, delta));
    chunks.push(chunk(choice.index, {}, choice.finish_reason));
  }
  if (completion.usage) chunks.push({ ...base, choices: [], usage: completion.usage });
  return chunks;
}
