import type { AnyThinkingBlock, FinishReason, Usage } from '../types/chat.js';
import { encodeReasoningState } from './reasoning-state.js';
import type {
  ItemStatus,
  ResponseFunctionCall,
  ResponseObject,
  ResponseOutputMessage,
  ResponseOutputText,
  ResponseReasoning,
  ResponseUsage,
} from './types.js';

/** An `output_text` part. */
export function outputText(text: string): ResponseOutputText {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

/** The assistant's message item, with one `output_text` part (none while it has not started). */
export function messageItem(id: string, status: ItemStatus, text?: string): ResponseOutputMessage {
  return {
    type: 'message',
    id,
    role: 'assistant',
    status,
    content: text === undefined ? [] : [outputText(text)],
  };
}

/** A function call item. */
export function functionCallItem(
  id: string,
  call: { call_id: string; name: string; arguments: string },
  status: ItemStatus,
): ResponseFunctionCall {
  return {
    type: 'function_call',
    id,
    call_id: call.call_id,
    name: call.name,
    arguments: call.arguments,
    status,
  };
}

/**
 * A reasoning item: the reasoning text as one summary part (none when the provider showed no text),
 * and the signed thinking blocks in `encrypted_content` when there are any.
 */
export function reasoningItem(
  id: string,
  text: string,
  blocks: readonly AnyThinkingBlock[],
): ResponseReasoning {
  const item: ResponseReasoning = {
    type: 'reasoning',
    id,
    summary: text === '' ? [] : [{ type: 'summary_text', text }],
  };
  const encrypted = encodeReasoningState(blocks);
  if (encrypted !== undefined) item.encrypted_content = encrypted;
  return item;
}

/** How an answer ended: whole, or cut (with why). */
export interface FinishOutcome {
  status: 'completed' | 'incomplete';
  incomplete_details: ResponseObject['incomplete_details'];
}

/** How a finish reason ends a response: cut by the output limit or a content filter is `incomplete`. */
export function finishOutcome(finish: FinishReason | null | undefined): FinishOutcome {
  if (finish === 'length')
    return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finish === 'content_filter')
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/**
 * Chat usage as the Responses API counts it: `input_tokens` counts every input token, the cached
 * reads (`cached_tokens`) and writes (`cache_write_tokens`) among them; reasoning tokens are part of
 * `output_tokens`.
 *
 * @example toResponseUsage({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 })
 * // => { input_tokens: 10, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
 * //      output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 }
 */
export function toResponseUsage(usage: Usage): ResponseUsage {
  const input = count(usage.prompt_tokens);
  const output = count(usage.completion_tokens);
  return {
    input_tokens: input,
    input_tokens_details: {
      cached_tokens: count(usage.prompt_tokens_details?.cached_tokens),
      cache_write_tokens: count(usage.prompt_tokens_details?.cache_creation_tokens),
    },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: count(usage.completion_tokens_details?.reasoning_tokens) },
    total_tokens: count(usage.total_tokens) || input + output,
  };
}
