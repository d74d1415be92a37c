import type { AnyThinkingBlock, AssistantMessage, ChatCompletion } from '@svc/router';
import { messageId } from './message-id.js';
import { type StopReason, toAnthropicStop } from './stop-reason.js';
import { type AnthropicUsage, toAnthropicUsage } from './to-anthropic-usage.js';
import { toolInput } from './tool-input.js';

/** One content block of an Anthropic answer. */
export type AnthropicContentBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** An Anthropic `message` (the answer of `POST /v1/messages`). */
export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicContentBlock[];
  stop_reason: StopReason;
  stop_sequence: string | null;
  usage: AnthropicUsage;
}

function thinkingContent(message: AssistantMessage): AnthropicContentBlock[] {
  const blocks: readonly AnyThinkingBlock[] = message.thinking_blocks ?? [];
  if (blocks.length === 0) {
    // reasoning from a provider without signed blocks (DeepSeek, Gemini, ...) still reads as thinking
    return message.reasoning_content
      ? [{ type: 'thinking', thinking: message.reasoning_content, signature: '' }]
      : [];
  }
  return blocks.map((block) =>
    block.type === 'redacted_thinking'
      ? { type: 'redacted_thinking', data: block.data }
      : { type: 'thinking', thinking: block.thinking, signature: block.signature ?? '' },
  );
}

/**
 * A chat completion as Anthropic's `message`: thinking blocks first (signatures kept), then the text,
 * then one `tool_use` block per tool call with its arguments parsed into `input`. `model` is the name
 * the client asked for. Reasoning without thinking blocks (DeepSeek, Gemini, ...) is one thinking
 * block with `signature: ''`, which the request translation sends back as `reasoning_content` only.
 * `stop_reason` is `stop_sequence` when the provider said which sequence matched.
 *
 * @example chatCompletionToAnthropic(completion, 'claude-sonnet-4-5').content
 * // => [{ type: 'text', text: 'Hello' }]
 */
export function chatCompletionToAnthropic(completion: ChatCompletion, model: string): AnthropicMessage {
  const choice = completion.choices[0];
  const message = choice?.message;
  const content: AnthropicContentBlock[] = message ? thinkingContent(message) : [];
  if (typeof message?.content === 'string' && message.content !== '') {
    content.push({ type: 'text', text: message.content });
  }
  for (const call of message?.tool_calls ?? []) {
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: toolInput(call.function.arguments),
    });
  }
  return {
    id: messageId(completion.id),
    type: 'message',
    role: 'assistant',
    model,
    content,
    ...toAnthropicStop(choice?.finish_reason, message?.provider_specific_fields),
    usage: toAnthropicUsage(completion.usage),
  };
}
