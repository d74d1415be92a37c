import { InternalServerError } from '../../errors/classes.js';
import type { FinishReason } from '../../types/index.js';

// the model failed to produce a usable turn: a retry (here or on a peer) may succeed, a `stop` would
// hand the caller an empty answer as if it were one
const MODEL_FAILURES = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS']);

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
 *
 * @throws InternalServerError (retryable) for `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL` and
 * `TOO_MANY_TOOL_CALLS`: the model failed, it did not answer.
 */
export function toFinishReason(reason: string | undefined, calledFunction: boolean): FinishReason | null {
  if (reason === undefined || reason === 'FINISH_REASON_UNSPECIFIED') return null;
  if (reason === 'MAX_TOKENS') return 'length';
  if (CONTENT_FILTER.has(reason)) return 'content_filter';
  if (MODEL_FAILURES.has(reason)) {
    throw new InternalServerError(`gemini: the model failed to complete its turn (finishReason ${reason})`, {
      provider: 'gemini',
    });
  }
  // STOP, MALFORMED_FUNCTION_CALL, LANGUAGE, OTHER, ...: the turn is over
  return calledFunction ? 'tool_calls' : 'stop';
}
