import { promptTokens, textTokens } from '../checks/token-count.js';
import type { ChatCompletionChunk, Usage } from '../types/index.js';

/** The text a chunk delivers: the content, reasoning and tool calls (names and arguments) of every choice. */
export function chunkText(chunk: ChatCompletionChunk): string {
  let text = '';
  for (const choice of chunk.choices) {
    const delta = choice?.delta;
    if (!delta) continue;
    if (typeof delta.content === 'string') text += delta.content;
    if (typeof delta.reasoning_content === 'string') text += delta.reasoning_content;
    for (const call of delta.tool_calls ?? []) {
      const fn = call.function;
      if (typeof fn?.name === 'string') text += fn.name;
      if (typeof fn?.arguments === 'string') text += fn.arguments;
    }
  }
  return text;
}

/**
 * Usage counted with the tokenizer, for an answer whose upstream reported none (a stream cut, or left
 * by its caller, before its usage chunk): the prompt as `promptTokens` counts it (the messages' text)
 * and the completion text that was delivered. An estimate: tool definitions and images are not counted.
 */
export async function countedUsage(
  request: Readonly<Record<string, unknown>>,
  completion: string,
): Promise<Usage> {
  const [prompt, answer] = await Promise.all([promptTokens(request), textTokens(completion)]);
  return { prompt_tokens: prompt, completion_tokens: answer, total_tokens: prompt + answer };
}
