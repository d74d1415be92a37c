import type { SpendLogRow } from '../db/spend-log-row.js';

/** What the proxy knows of a finished call besides its spend row: for call records, never stored. */
export interface CallContext {
  /** The model the caller asked for. */
  model: string;
  /** The virtual key's alias (never the key). */
  key_alias: string | null;
  /** Streams: from the request's arrival to the first chunk; null otherwise. */
  time_to_first_token_ms: number | null;
}

/** Where finished calls go: the batched spend writer (and call records). Must not block or throw. */
export type SpendSink = (call: CallContext, row: SpendLogRow) => void;
