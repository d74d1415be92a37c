import type { AnyThinkingBlock } from '../../types/index.js';
import { asRecord, asString } from '../shared/json.js';

/** Whether an OpenRouter model id names an Anthropic model (`anthropic/claude-*`): thinking blocks apply. */
export const isAnthropicModel = (model: string): boolean => model.startsWith('anthropic/');

/**
 * Thinking blocks from OpenRouter `reasoning_details` of a whole answer: each signed `reasoning.text`
 * is a thinking block, each `reasoning.encrypted` a redacted one. Unsigned text and summaries are not
 * blocks (Anthropic would refuse them back); they stay in `reasoning_details`.
 */
export function thinkingBlocksOf(details: unknown): AnyThinkingBlock[] {
  if (!Array.isArray(details)) return [];
  const blocks: AnyThinkingBlock[] = [];
  for (const item of details) {
    const detail = asRecord(item) ?? {};
    const signature = asString(detail.signature);
    const data = asString(detail.data);
    if (detail.type === 'reasoning.text' && signature)
      blocks.push({ type: 'thinking', thinking: asString(detail.text) ?? '', signature });
    else if (detail.type === 'reasoning.encrypted' && data) blocks.push({ type: 'redacted_thinking', data });
  }
  return blocks;
}

/**
 * Thinking-block deltas from the `reasoning_details` pieces of one stream chunk (CONTRACT 5.4): a text
 * piece as `{ type: 'thinking', thinking }`, a signature piece as `{ type: 'thinking', thinking: '',
 * signature }`, an encrypted piece as `{ type: 'redacted_thinking', data }`. Empty placeholders give
 * nothing.
 */
export function thinkingBlockDeltasOf(details: unknown): AnyThinkingBlock[] {
  if (!Array.isArray(details)) return [];
  const blocks: AnyThinkingBlock[] = [];
  for (const item of details) {
    const detail = asRecord(item) ?? {};
    if (detail.type === 'reasoning.encrypted') {
      const data = asString(detail.data);
      if (data) blocks.push({ type: 'redacted_thinking', data });
      continue;
    }
    if (detail.type !== 'reasoning.text') continue;
    const text = asString(detail.text);
    const signature = asString(detail.signature);
    if (text) blocks.push({ type: 'thinking', thinking: text });
    if (signature) blocks.push({ type: 'thinking', thinking: '', signature });
  }
  return blocks;
}

/**
 * `reasoning_details` for Anthropic thinking blocks that came from elsewhere (a conversation moved from
 * `anthropic/` to `openrouter/anthropic/...`), in OpenRouter's `anthropic-claude-v1` format.
 */
export function reasoningDetailsOf(blocks: readonly AnyThinkingBlock[]): Array<Record<string, unknown>> {
  return blocks.map((block, index) =>
    block.type === 'thinking'
      ? {
          type: 'reasoning.text',
          text: block.thinking,
          ...(block.signature ? { signature: block.signature } : {}),
          format: 'anthropic-claude-v1',
          index,
        }
      : { type: 'reasoning.encrypted', data: block.data, format: 'anthropic-claude-v1', index },
  );
}
