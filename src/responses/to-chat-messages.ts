import type { AnyThinkingBlock, ChatMessage, ContentPart, ToolCall } from '../types/chat.js';
import { decodeReasoningState } from './reasoning-state.js';
import type {
  FunctionCallItem,
  FunctionCallOutputItem,
  InputImagePart,
  InputItem,
  InputTextPart,
  MessageItem,
  OutputTextPart,
  RefusalPart,
} from './types.js';

type Part = InputTextPart | InputImagePart | OutputTextPart | RefusalPart;

function partText(part: Part): string | undefined {
  if (part.type === 'refusal') return part.refusal;
  return part.type === 'input_image' ? undefined : part.text;
}

function chatPart(part: Part): ContentPart {
  if (part.type !== 'input_image') return { type: 'text', text: partText(part) ?? '' };
  const url: { url: string; detail?: 'auto' | 'low' | 'high' } = { url: part.image_url };
  if (part.detail !== undefined) url.detail = part.detail;
  return { type: 'image_url', image_url: url };
}

/** Parts as one chat content: text only reads as a string (every provider takes that), else the parts. */
function content(parts: string | readonly Part[]): string | ContentPart[] {
  if (typeof parts === 'string') return parts;
  const texts = parts.map(partText);
  if (texts.every((t) => t !== undefined)) return texts.join('\n');
  return parts.map(chatPart);
}

function messageOf(item: MessageItem): ChatMessage {
  return { role: item.role, content: content(item.content) };
}

function toolMessage(item: FunctionCallOutputItem): ChatMessage {
  return { role: 'tool', tool_call_id: item.call_id, content: content(item.output) };
}

/**
 * Builds the chat conversation: function calls join the assistant message before them (or start
 * one), since chat carries a turn's calls on its assistant message; reasoning waits for the next
 * assistant message.
 */
class Conversation {
  readonly messages: ChatMessage[] = [];
  #thinking: AnyThinkingBlock[] = [];

  add(item: InputItem): void {
    if (item.type === 'function_call') this.#call(item);
    else if (item.type === 'function_call_output') {
      this.#thinking = [];
      this.messages.push(toolMessage(item));
    } else if (item.type === 'reasoning')
      this.#thinking.push(...decodeReasoningState(item.encrypted_content));
    else this.#message(item);
  }

  #message(item: MessageItem): void {
    if (item.role !== 'assistant') this.#thinking = [];
    this.messages.push(this.#withThinking(messageOf(item)));
  }

  #call(item: FunctionCallItem): void {
    const call: ToolCall = {
      id: item.call_id,
      type: 'function',
      function: { name: item.name, arguments: item.arguments },
    };
    const last = this.messages.at(-1);
    if (last?.role === 'assistant' && this.#thinking.length === 0) {
      last.tool_calls = [...(last.tool_calls ?? []), call];
      return;
    }
    this.messages.push(this.#withThinking({ role: 'assistant', content: null, tool_calls: [call] }));
  }

  #withThinking(message: ChatMessage): ChatMessage {
    if (message.role !== 'assistant' || this.#thinking.length === 0) return message;
    message.thinking_blocks = this.#thinking;
    this.#thinking = [];
    return message;
  }
}

/**
 * Responses input items as chat messages: `message` items keep their role (`input_text` and
 * `output_text` parts become text, `input_image` an image part; text only becomes a string);
 * `function_call` items become the `tool_calls` of an assistant message (joining the assistant
 * message just before them); `function_call_output` items become `tool` messages. A `reasoning` item's
 * summary is not model input (as on OpenAI); the thinking blocks its `encrypted_content` carries (when
 * this library wrote it) go back on the next assistant message as `thinking_blocks`, signatures kept.
 *
 * @example itemsToChatMessages([{ role: 'user', content: 'hi' }, { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' }])
 * // => [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', ... }] }]
 */
export function itemsToChatMessages(items: readonly InputItem[]): ChatMessage[] {
  const conversation = new Conversation();
  for (const item of items) conversation.add(item);
  return conversation.messages;
}
