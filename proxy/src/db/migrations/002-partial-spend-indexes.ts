import type { Migration } from '../migrate.js';

// Spend rows of calls with no key (the master key, JWTs), no user or no team were indexed under NULL,
// which no query reads: each such row paid for index entries it never uses (on the embedded database
// an index entry costs about 8 µs a row). The lookups by key, user and team keep their indexes.
export const partialSpendIndexes: Migration = {
  name: '002-partial-spend-indexes',
  statements: [
    'DROP INDEX svc_spend_logs_key_time_idx',
    'DROP INDEX svc_spend_logs_user_time_idx',
    'DROP INDEX svc_spend_logs_team_time_idx',
    'CREATE INDEX svc_spend_logs_key_time_idx ON svc_spend_logs (key_hash, start_time DESC) WHERE key_hash IS NOT NULL',
    'CREATE INDEX svc_spend_logs_user_time_idx ON svc_spend_logs (user_id, start_time DESC) WHERE user_id IS NOT NULL',
    'CREATE INDEX svc_spend_logs_team_time_idx ON svc_spend_logs (team_id, start_time DESC) WHERE team_id IS NOT NULL',
  ],
};
