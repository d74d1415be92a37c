import type { ChatMessage, ContentPart, ToolCall } from '../../types/index.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { badRequest } from '../shared/provider-errors.js';
import { toolInput } from '../shared/tool-arguments.js';
import type { GeminiContent, GeminiPart } from './wire-types.js';

const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
};

/** An `image_url` as `inlineData` (a `data:` URI) or `fileData` (any other URL: `gs://`, Files API, https). */
function imagePart(url: string): GeminiPart {
  const data = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (data) return { inlineData: { mimeType: data[1] ?? 'application/octet-stream', data: data[2] ?? '' } };
  const extension = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase();
  const mimeType = extension ? MIME_BY_EXTENSION[extension] : undefined;
  return { fileData: mimeType ? { mimeType, fileUri: url } : { fileUri: url } };
}

function contentParts(content: ChatMessage['content']): GeminiPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: ContentPart): GeminiPart[] => {
    if (part.type === 'text') return part.text === '' ? [] : [{ text: part.text }];
    if (part.type === 'image_url') return [imagePart(part.image_url.url)];
    return [];
  });
}

function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

function functionCallPart(call: ToolCall, target: ProviderTarget): GeminiPart {
  const part: GeminiPart = { functionCall: { name: call.function.name, args: toolInput(call, target) } };
  const signature = call.provider_specific_fields?.thought_signature;
  if (typeof signature === 'string') part.thoughtSignature = signature;
  return part;
}

function modelParts(message: ChatMessage, target: ProviderTarget): GeminiPart[] {
  const parts = contentParts(message.content);
  // a text part's signature goes back on the first text part, as Gemini returned it
  const signatures = message.provider_specific_fields?.thought_signatures;
  const first = parts[0];
  if (first?.text !== undefined && Array.isArray(signatures) && typeof signatures[0] === 'string')
    first.thoughtSignature = signatures[0];
  for (const call of message.tool_calls ?? []) parts.push(functionCallPart(call, target));
  return parts;
}

/** The function name a tool result answers: from the nearest earlier assistant call with its id. */
function toolName(messages: readonly ChatMessage[], index: number): string | undefined {
  const id = messages[index]?.tool_call_id;
  for (let i = index - 1; i >= 0 && id; i--) {
    const call = messages[i]?.tool_calls?.find((c) => c.id === id);
    if (call) return call.function.name;
  }
  return messages[index]?.name;
}

function functionResponsePart(
  messages: readonly ChatMessage[],
  index: number,
  target: ProviderTarget,
): GeminiPart {
  const message = messages[index] as ChatMessage;
  const name = toolName(messages, index);
  if (!name)
    throw badRequest(target, `tool message ${message.tool_call_id ?? index} matches no earlier tool call`);
  const text = textOf(message.content);
  let response: Record<string, unknown> = { content: text };
  try {
    const parsed: unknown = JSON.parse(text);
    // a JSON object result keeps its structure; anything else is wrapped
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      response = parsed as Record<string, unknown>;
  } catch {
    // plain text result
  }
  return { functionResponse: { name, response } };
}

/**
 * OpenAI messages as Gemini `contents` and `systemInstruction`: system/developer text goes to the
 * system instruction, assistant turns become `model` turns (tool calls as `functionCall` parts with
 * their `thoughtSignature`), tool results become `functionResponse` parts of a `user` turn.
 * Consecutive turns of one role are merged (parallel tool results travel together, as Gemini needs).
 *
 * @throws BadRequestError when tool call arguments are not a JSON object, or a tool message answers
 * no earlier tool call.
 */
export function toGeminiContents(
  messages: readonly ChatMessage[],
  target: ProviderTarget,
): { contents: GeminiContent[]; systemInstruction?: { parts: GeminiPart[] } } {
  const system: GeminiPart[] = [];
  const contents: GeminiContent[] = [];
  let lastIsToolResult = false;
  const push = (role: GeminiContent['role'], parts: GeminiPart[], toolResult = false) => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    // tool results stay in a turn of their own, apart from the user's next words
    if (last?.role === role && lastIsToolResult === toolResult) last.parts.push(...parts);
    else contents.push({ role, parts });
    lastIsToolResult = toolResult;
  };
  messages.forEach((message, index) => {
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...contentParts(message.content).filter((p) => p.text !== undefined));
        break;
      case 'assistant':
        push('model', modelParts(message, target));
        break;
      case 'tool':
      case 'function':
        push('user', [functionResponsePart(messages, index, target)], true);
        break;
      default:
        push('user', contentParts(message.content));
    }
  });
  return system.length > 0 ? { contents, systemInstruction: { parts: system } } : { contents };
}
