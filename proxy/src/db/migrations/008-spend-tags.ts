import type { Migration } from '../migrate.js';

// The request's tags (`metadata.tags`, header `x-svc-tags`), for spend split by feature or environment
// (`/spend/report?group_by=tag`). NULL for an untagged call (and for rows written before this column).
export const spendTags: Migration = {
  name: '008-spend-tags',
  statements: ['ALTER TABLE svc_spend_logs ADD COLUMN tags text[]'],
};
