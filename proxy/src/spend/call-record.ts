import type { CallRecord } from '@svc/router';
import type { SpendLogRow } from '../db/spend-log-row.js';
import type { CallContext } from './spend-entry.js';

/** `gen_ai.operation.name` of each model-call route (the route a spend row names). */
const OPERATIONS: Readonly<Record<string, string>> = Object.freeze({
  '/v1/chat/completions': 'chat',
  '/v1/messages': 'chat',
  '/v1/completions': 'text_completion',
  '/v1/embeddings': 'embeddings',
  '/v1/images/generations': 'image_generation',
});

/**
 * A call's record for the `callbacks` destinations: every field of its spend row, whatever columns the
 * row has, with what only the request knew (the requested model, the key's alias, time to first token).
 * A spend row holds no secret (a key's hash, never the key; no message content), so neither does this.
 */
export function proxyCallRecord(row: SpendLogRow, call: CallContext): CallRecord {
  return { ...row, ...call, operation: (row.route && OPERATIONS[row.route]) ?? 'chat' };
}
