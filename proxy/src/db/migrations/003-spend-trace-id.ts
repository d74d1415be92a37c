import type { Migration } from '../migrate.js';

// A call id is unique per call; the trace id a traced call belongs to (which several calls may share)
// is its own column. `usage_estimated` marks a row whose tokens the proxy counted: an answer that ended
// before the upstream reported its usage (cut, or left by its client) is charged for what was delivered.
export const spendTraceId: Migration = {
  name: '003-spend-trace-id',
  statements: [
    'ALTER TABLE svc_spend_logs ADD COLUMN trace_id text',
    'ALTER TABLE svc_spend_logs ADD COLUMN usage_estimated boolean NOT NULL DEFAULT false',
  ],
};
