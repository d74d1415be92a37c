import type { Migration } from '../migrate.js';

// Whether a call's cost came from a price: false marks a call on a deployment with no price, whose
// cost of 0 means "unknown", not "free". Rows written before this column are NULL (not recorded).
export const spendPriced: Migration = {
  name: '004-spend-priced',
  statements: ['ALTER TABLE svc_spend_logs ADD COLUMN priced boolean'],
};
