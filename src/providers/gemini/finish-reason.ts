import type { FinishReason } from '../../types/index.js';

// Gemini stops for safety-like reasons under several names; all are content filtering to a caller
const CONTENT_FILTER = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * The contract's `finish_reason` for a Gemini `finishReason` (CONTRACT 5.2): `STOP` -> `stop`,
 * `MAX_TOKENS` -> `length`, safety family -> `content_filter`; a candidate that called a function
 * finishes with `tool_calls` (Gemini itself says `STOP` then). Null while the candidate is not done.
 */
export function toFinishReason(reason: string | undefined, calledFunction: boolean): FinishReason | null {
  if (reason === undefined || reason === 'FINISH_REASON_UNSPECIFIED') return null;
  if (reason === 'MAX_TOKENS') return 'length';
  if (CONTENT_FILTER.has(reason)) return 'content_filter';
  // STOP, MALFORMED_FUNCTION_CALL, LANGUAGE, OTHER, ...: the turn is over
  return calledFunction ? 'tool_calls' : 'stop';
}
