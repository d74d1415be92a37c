import type { AnyThinkingBlock, RedactedThinkingBlock, ThinkingBlock, ToolCall } from '../../types/index.js';
import type { ProviderTarget } from './provider-adapter.js';
import { badRequest } from './provider-errors.js';

/**
 * A tool call's `function.arguments` (a JSON string) as the object the provider takes back (Anthropic
 * `input`, Converse `toolUse.input`, Gemini `functionCall.args`). Empty or blank arguments are `{}`.
 *
 * @throws BadRequestError naming the call when the arguments are not JSON or not a JSON object.
 * @example toolInput({ id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }, target)
 * // => { a: 1 }
 */
export function toolInput(call: ToolCall, target: ProviderTarget): Record<string, unknown> {
  const text = call.function.arguments;
  if (!text || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(target, `the arguments of tool call ${call.id} are not valid JSON`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw badRequest(target, `the arguments of tool call ${call.id} are not a JSON object`);
  return value as Record<string, unknown>;
}

/** A thinking block Claude can verify: a signed one, or a redacted one. */
export type SendableThinkingBlock = (ThinkingBlock & { signature: string }) | RedactedThinkingBlock;

/**
 * The thinking blocks of an earlier assistant turn that Claude accepts back, in order. Claude verifies
 * every thinking block by its signature, so an unsigned one (reasoning from another provider) is left
 * out, like plain `reasoning_content`; redacted blocks always go back.
 *
 * @example sendableThinkingBlocks([{ type: 'thinking', thinking: 'x' }, { type: 'redacted_thinking', data: 'e' }])
 * // => [{ type: 'redacted_thinking', data: 'e' }]
 */
export function sendableThinkingBlocks(
  blocks: readonly AnyThinkingBlock[] | null | undefined,
): SendableThinkingBlock[] {
  return (blocks ?? []).filter(
    (block): block is SendableThinkingBlock =>
      block.type === 'redacted_thinking' || (typeof block.signature === 'string' && block.signature !== ''),
  );
}
