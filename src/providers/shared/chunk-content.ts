import type { ChatCompletionChunk } from '../../types/index.js';

/**
 * Whether a chunk shows the model answering: text, reasoning (text or thinking blocks), a tool call,
 * or a finish reason. A role-only or empty chunk does not: it is no evidence the deployment will
 * produce anything (`first_token_timeout` waits for a chunk that does).
 */
export function carriesContent(chunk: ChatCompletionChunk): boolean {
  for (const { delta, finish_reason } of chunk.choices) {
    if (finish_reason !== null && finish_reason !== undefined) return true;
    if (delta.content || delta.reasoning_content) return true;
    if ((delta.tool_calls?.length ?? 0) > 0 || (delta.thinking_blocks?.length ?? 0) > 0) return true;
  }
  return false;
}
