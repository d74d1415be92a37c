import type { AnyThinkingBlock, ChatMessage, ContentPart, ToolCall } from '@svc/router';
import { BadRequestError } from '@svc/router';
import type {
  AnthropicRequestBlock,
  AnthropicRequestMessage,
  AnthropicTextBlock,
  AnthropicToolResultContentBlock,
} from './request-schema.js';

type Block<T extends AnthropicRequestBlock['type']> = Extract<AnthropicRequestBlock, { type: T }>;

/** A text block as a chat part; a prompt-caching mark travels with it (the Anthropic adapter reads it). */
function textPart(block: AnthropicTextBlock): ContentPart {
  const part: ContentPart = { type: 'text', text: block.text };
  return block.cache_control ? ({ ...part, cache_control: block.cache_control } as ContentPart) : part;
}

function imagePart(block: Block<'image'>): ContentPart {
  const { source } = block;
  const url = source.type === 'base64' ? `data:${source.media_type};base64,${source.data}` : source.url;
  const part: ContentPart = { type: 'image_url', image_url: { url } };
  return block.cache_control ? ({ ...part, cache_control: block.cache_control } as ContentPart) : part;
}

/**
 * Text blocks as one message content: a plain string when no block carries a caching mark (every
 * provider takes that), else the parts.
 */
export function textContent(
  blocks: readonly AnthropicTextBlock[],
  separator: string,
): string | ContentPart[] {
  if (blocks.some((b) => b.cache_control)) return blocks.map(textPart);
  return blocks.map((b) => b.text).join(separator);
}

/**
 * A text, image or document block as a chat part; a document passes as it is (the Anthropic adapter
 * sends it on untouched).
 */
function mediaPart(block: AnthropicToolResultContentBlock): ContentPart {
  if (block.type === 'text') return textPart(block);
  if (block.type === 'image') return imagePart(block);
  return block as unknown as ContentPart;
}

// Text only reads as a string (every provider takes that); with an image or document, as parts.
function toolResultContent(content: Block<'tool_result'>['content']): string | ContentPart[] {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  const texts = content.filter((b): b is AnthropicTextBlock => b.type === 'text');
  return texts.length === content.length ? textContent(texts, '\n') : content.map(mediaPart);
}

function toolMessage(block: Block<'tool_result'>): ChatMessage {
  return { role: 'tool', tool_call_id: block.tool_use_id, content: toolResultContent(block.content) };
}

// Only the blocks a user turn may hold besides tool results; others in a user turn are refused.
function userPart(block: AnthropicRequestBlock, where: string): ContentPart {
  if (block.type === 'text' || block.type === 'image' || block.type === 'document') return mediaPart(block);
  throw new BadRequestError(
    `Invalid Anthropic Messages request: ${where}: a \`${block.type}\` block belongs in an assistant message`,
  );
}

/**
 * A user turn as chat messages: its tool results first, one `tool` message each (a chat history puts
 * them right after the assistant's calls), then the rest of the turn as one user message.
 */
function userMessages(content: string | AnthropicRequestBlock[], where: string): ChatMessage[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const out: ChatMessage[] = [];
  const parts: ContentPart[] = [];
  content.forEach((block, i) => {
    if (block.type === 'tool_result') out.push(toolMessage(block));
    else parts.push(userPart(block, `${where}.content[${i}]`));
  });
  if (parts.length > 0) out.push({ role: 'user', content: parts });
  return out;
}

/**
 * An assistant turn's thinking as the chat message's reasoning fields. Signed and redacted blocks go to
 * `thinking_blocks` (Anthropic-type providers verify them). An unsigned block is one this proxy made
 * from a provider's plain `reasoning_content` (DeepSeek, Gemini, ...), so it goes back as that text
 * only: those providers refuse `thinking_blocks`, and DeepSeek needs the text on tool-call turns.
 */
function reasoningFields(thinking: readonly AnyThinkingBlock[]): Partial<ChatMessage> {
  const out: Partial<ChatMessage> = {};
  const signed = thinking.filter((b) => b.type === 'redacted_thinking' || b.signature !== '');
  if (signed.length > 0) out.thinking_blocks = [...signed];
  const reasoning = thinking.map((b) => (b.type === 'thinking' ? b.thinking : '')).join('');
  if (reasoning !== '') out.reasoning_content = reasoning;
  return out;
}

function assistantMessage(content: string | AnthropicRequestBlock[], where: string): ChatMessage {
  if (typeof content === 'string') return { role: 'assistant', content };
  const text: string[] = [];
  const calls: ToolCall[] = [];
  const thinking: AnyThinkingBlock[] = [];
  content.forEach((block, i) => {
    if (block.type === 'text') text.push(block.text);
    else if (block.type === 'tool_use') {
      calls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input) },
      });
    } else if (block.type === 'thinking') {
      thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    } else if (block.type === 'redacted_thinking')
      thinking.push({ type: 'redacted_thinking', data: block.data });
    else
      throw new BadRequestError(
        `Invalid Anthropic Messages request: ${where}.content[${i}]: a \`${block.type}\` block belongs in a user message`,
      );
  });
  const message: ChatMessage = {
    role: 'assistant',
    content: text.length > 0 || calls.length === 0 ? text.join('') : null,
  };
  if (calls.length > 0) message.tool_calls = calls;
  return { ...message, ...reasoningFields(thinking) };
}

/**
 * Anthropic's conversation as chat messages. User turns: text and images as parts (base64 images as
 * `data:` URLs), tool results as `tool` messages placed before the rest of the turn (their images as
 * parts too). Assistant turns: text as `content`, `tool_use` as `tool_calls` (input as JSON
 * arguments), signed and redacted thinking as `thinking_blocks` (signatures kept), all thinking text as
 * `reasoning_content`; an unsigned thinking block (made by this proxy from plain reasoning) only as
 * `reasoning_content`.
 *
 * @throws BadRequestError naming the block when a block is in the wrong role's turn.
 */
export function toChatMessages(messages: readonly AnthropicRequestMessage[]): ChatMessage[] {
  return messages.flatMap((message, i) =>
    message.role === 'user'
      ? userMessages(message.content, `messages[${i}]`)
      : [assistantMessage(message.content, `messages[${i}]`)],
  );
}
