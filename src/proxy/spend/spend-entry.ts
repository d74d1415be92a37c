import type { SpendLogRow } from '../db/spend-log-row.js';

/** Where finished calls go: the batched spend writer. Must not block or throw. */
export type SpendSink = (row: SpendLogRow) => void;
