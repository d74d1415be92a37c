import type { AnyThinkingBlock, ChatMessage } from '../../types/index.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { badRequest } from '../shared/provider-errors.js';
import { sendableThinkingBlocks, toolInput } from '../shared/tool-arguments.js';
import { type AnthropicBlock, contentBlocks } from './convert-content.js';

/** One Anthropic message. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicBlock[];
}

/** A conversation split the way Anthropic takes it: system text apart, strictly alternating turns. */
export interface AnthropicPrompt {
  system?: string | AnthropicBlock[];
  messages: AnthropicMessage[];
}

interface Turn {
  role: 'user' | 'assistant';
  blocks: AnthropicBlock[];
}

// Anthropic verifies every thinking block it gets back by its signature: only signed and redacted
// ones are sent (an unsigned one is left out like plain `reasoning_content`).
function thinkingBlocks(blocks: readonly AnyThinkingBlock[] | null | undefined): AnthropicBlock[] {
  return sendableThinkingBlocks(blocks).map((block) =>
    block.type === 'redacted_thinking'
      ? { type: 'redacted_thinking', data: block.data }
      : { type: 'thinking', thinking: block.thinking, signature: block.signature },
  );
}

/** An assistant turn: its thinking first (Anthropic requires it before the text and tool use), then
 * its text (empty text blocks are rejected, so they are skipped), then its tool calls. */
function assistantBlocks(message: ChatMessage, target: ProviderTarget): AnthropicBlock[] {
  const text = contentBlocks(message.content).filter((b) => !(b.type === 'text' && b.text === ''));
  const calls = (message.tool_calls ?? []).map((call) => ({
    type: 'tool_use',
    id: call.id,
    name: call.function.name,
    input: toolInput(call, target),
  }));
  return [...thinkingBlocks(message.thinking_blocks), ...text, ...calls];
}

function toolResult(message: ChatMessage, target: ProviderTarget): AnthropicBlock {
  const id = message.tool_call_id ?? (message.role === 'function' ? message.name : undefined);
  if (!id) throw badRequest(target, 'a `tool` message needs `tool_call_id`');
  const content =
    typeof message.content === 'string' || message.content == null
      ? (message.content ?? '')
      : contentBlocks(message.content);
  return { type: 'tool_result', tool_use_id: id, content };
}

function turnOf(message: ChatMessage, target: ProviderTarget): Turn | undefined {
  switch (message.role) {
    case 'assistant':
      return { role: 'assistant', blocks: assistantBlocks(message, target) };
    case 'tool':
    case 'function':
      return { role: 'user', blocks: [toolResult(message, target)] };
    default:
      return { role: 'user', blocks: contentBlocks(message.content) };
  }
}

// A lone plain text block reads better as a string, which Anthropic takes as the same thing.
function compact(blocks: AnthropicBlock[]): string | AnthropicBlock[] {
  const [only] = blocks;
  if (blocks.length === 1 && only?.type === 'text' && Object.keys(only).length === 2)
    return only.text as string;
  return blocks;
}

/**
 * Converts OpenAI chat messages into Anthropic's `system` and `messages`: system and developer
 * messages are lifted into `system` wherever they stand; consecutive `tool` results become one user
 * message of `tool_result` blocks; consecutive same-role messages are merged (Anthropic requires turns
 * to alternate); an assistant message with nothing to send is left out.
 *
 * @throws BadRequestError when a tool message has no `tool_call_id` or tool call arguments are not a
 * JSON object.
 */
export function toAnthropicPrompt(messages: readonly ChatMessage[], target: ProviderTarget): AnthropicPrompt {
  const system: AnthropicBlock[] = [];
  const turns: Turn[] = [];
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') {
      system.push(...contentBlocks(message.content).filter((b) => b.type !== 'text' || b.text !== ''));
      continue;
    }
    const turn = turnOf(message, target);
    if (!turn || (turn.role === 'assistant' && turn.blocks.length === 0)) continue;
    const last = turns[turns.length - 1];
    if (last && last.role === turn.role) last.blocks.push(...turn.blocks);
    else turns.push(turn);
  }
  const prompt: AnthropicPrompt = {
    messages: turns.map((t) => ({ role: t.role, content: compact(t.blocks) })),
  };
  if (system.length > 0) prompt.system = compact(system);
  return prompt;
}
