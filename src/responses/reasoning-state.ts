import type { AnyThinkingBlock } from '../types/chat.js';

// What a reasoning item's `encrypted_content` carries when this library wrote it: the provider's
// thinking blocks with their signatures, which Anthropic-type providers must get back on later turns.
// Opaque to callers (they send it back as they got it); a value from elsewhere (OpenAI's own
// encrypted reasoning) is not ours and is ignored.
const PREFIX = 'svc.thinking.v1.';

/** The `encrypted_content` for a reasoning item holding these thinking blocks; undefined for none. */
export function encodeReasoningState(blocks: readonly AnyThinkingBlock[]): string | undefined {
  if (blocks.length === 0) return undefined;
  return PREFIX + Buffer.from(JSON.stringify(blocks)).toString('base64url');
}

function isBlock(value: unknown): value is AnyThinkingBlock {
  if (typeof value !== 'object' || value === null) return false;
  const block = value as Record<string, unknown>;
  if (block.type === 'redacted_thinking') return typeof block.data === 'string';
  return (
    block.type === 'thinking' &&
    typeof block.thinking === 'string' &&
    (block.signature === undefined || typeof block.signature === 'string')
  );
}

/**
 * The thinking blocks an `encrypted_content` this library wrote carries; an empty list for any other
 * value (another service's encrypted reasoning, or a damaged one), which no chat provider could read.
 */
export function decodeReasoningState(encrypted: string | null | undefined): AnyThinkingBlock[] {
  if (!encrypted?.startsWith(PREFIX)) return [];
  try {
    const blocks: unknown = JSON.parse(Buffer.from(encrypted.slice(PREFIX.length), 'base64url').toString());
    return Array.isArray(blocks) && blocks.every(isBlock) ? blocks : [];
  } catch {
    return [];
  }
}
