import type { AnyThinkingBlock, ChatMessage } from '../../types/index.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { badRequest } from '../shared/provider-errors.js';
import { sendableThinkingBlocks, toolInput } from '../shared/tool-arguments.js';
import {
  type BedrockBlock,
  type BedrockReasoningBlock,
  contentBlocks,
  textParts,
} from './convert-content.js';

/** One Converse message. */
export interface BedrockMessage {
  role: 'user' | 'assistant';
  content: BedrockBlock[];
}

/** A conversation split the way Converse takes it: system blocks apart, alternating turns. */
export interface BedrockPrompt {
  system?: Array<{ text: string }>;
  messages: BedrockMessage[];
}

// Claude verifies every reasoning block it gets back by its signature: only signed and redacted ones
// are sent (an unsigned one is left out like plain `reasoning_content`).
function fromThinkingBlocks(blocks: readonly AnyThinkingBlock[]): BedrockBlock[] {
  return sendableThinkingBlocks(blocks).map((block) =>
    block.type === 'redacted_thinking'
      ? { reasoningContent: { redactedContent: block.data } }
      : { reasoningContent: { reasoningText: { text: block.thinking, signature: block.signature } } },
  );
}

/**
 * An assistant turn's reasoning for a Claude model: its `thinking_blocks`, else the native
 * `provider_specific_fields.reasoningContentBlocks` of an earlier Bedrock answer, verbatim.
 */
function reasoningBlocks(message: ChatMessage, claude: boolean): BedrockBlock[] {
  if (!claude) return [];
  if (message.thinking_blocks && message.thinking_blocks.length > 0)
    return fromThinkingBlocks(message.thinking_blocks);
  const native = message.provider_specific_fields?.reasoningContentBlocks;
  if (!Array.isArray(native)) return [];
  return (native as BedrockReasoningBlock[]).map((block) => ({ reasoningContent: block }));
}

/** An assistant turn: reasoning first (Claude requires it before text and tool use), then non-blank
 * text (Converse rejects blank text blocks), then the tool calls as `toolUse`. */
function assistantBlocks(message: ChatMessage, claude: boolean, target: ProviderTarget): BedrockBlock[] {
  const text = contentBlocks(message.content, target).filter((b) => !('text' in b && b.text.trim() === ''));
  const calls = (message.tool_calls ?? []).map(
    (call): BedrockBlock => ({
      toolUse: { toolUseId: call.id, name: call.function.name, input: toolInput(call, target) },
    }),
  );
  return [...reasoningBlocks(message, claude), ...text, ...calls];
}

function toolResult(message: ChatMessage, target: ProviderTarget): BedrockBlock {
  if (!message.tool_call_id) throw badRequest(target, 'a `tool` message has no `tool_call_id`');
  const content = textParts(message.content).map((text) => ({ text }));
  return {
    toolResult: { toolUseId: message.tool_call_id, content: content.length > 0 ? content : [{ text: '' }] },
  };
}

function turnOf(message: ChatMessage, claude: boolean, target: ProviderTarget): BedrockMessage | undefined {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: contentBlocks(message.content, target) };
    case 'assistant': {
      const content = assistantBlocks(message, claude, target);
      return content.length > 0 ? { role: 'assistant', content } : undefined;
    }
    case 'tool':
      return { role: 'user', content: [toolResult(message, target)] };
    default:
      throw badRequest(target, `messages with role \`${message.role}\` are not supported; use \`tool\``);
  }
}

/**
 * OpenAI messages as a Converse prompt: `system` and `developer` messages become `system` text blocks;
 * user content maps part by part (images as data URIs or S3 locations); assistant turns carry their
 * reasoning (Claude only), text and `toolUse` blocks; `tool` messages become `toolResult` blocks.
 * Consecutive turns of the same role are merged into one message, since Bedrock requires strict
 * user/assistant alternation (the tool results of one assistant turn go back as one user message).
 *
 * @throws BadRequestError for tool calls whose arguments are not a JSON object, a tool message without
 * `tool_call_id`, images Converse cannot take, or an unsupported role.
 */
export function toBedrockPrompt(
  messages: readonly ChatMessage[],
  claude: boolean,
  target: ProviderTarget,
): BedrockPrompt {
  const system: Array<{ text: string }> = [];
  const turns: BedrockMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') {
      for (const text of textParts(message.content)) if (text !== '') system.push({ text });
      continue;
    }
    const turn = turnOf(message, claude, target);
    if (!turn) continue;
    const last = turns[turns.length - 1];
    if (last && last.role === turn.role) last.content.push(...turn.content);
    else turns.push(turn);
  }
  return system.length > 0 ? { system, messages: turns } : { messages: turns };
}

/** Whether the conversation holds tool calls or results (Bedrock then requires a `toolConfig`). */
export function hasToolHistory(messages: readonly ChatMessage[]): boolean {
  return messages.some((m) => m.role === 'tool' || (m.tool_calls?.length ?? 0) > 0);
}
