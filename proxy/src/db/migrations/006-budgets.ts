import type { Migration } from '../migrate.js';

// Budgets that start again: `budget_duration` (`30d`, `1mo`, ...) and the time the running period
// ends, at every level that has a `max_budget`. At `budget_reset_at` the level's `spend` (what is
// counted against `max_budget`) goes back to 0; the total stays in the spend rows. `soft_budget` on
// keys and teams: crossing it raises one `budget_alert` per period, `soft_budget_alerted` recording
// that one was raised (cleared with each reset) so that several processes raise it once.
// Customers are the end users named by a request's `user` field, with their own budget and block.
export const budgets: Migration = {
  name: '006-budgets',
  statements: [
    `ALTER TABLE svc_keys ADD COLUMN budget_duration text, ADD COLUMN budget_reset_at timestamptz,
  ADD COLUMN soft_budget double precision, ADD COLUMN soft_budget_alerted boolean NOT NULL DEFAULT false`,
    `ALTER TABLE svc_teams ADD COLUMN budget_duration text, ADD COLUMN budget_reset_at timestamptz,
  ADD COLUMN soft_budget double precision, ADD COLUMN soft_budget_alerted boolean NOT NULL DEFAULT false`,
    'ALTER TABLE svc_users ADD COLUMN budget_duration text, ADD COLUMN budget_reset_at timestamptz',
    'ALTER TABLE svc_organizations ADD COLUMN budget_duration text, ADD COLUMN budget_reset_at timestamptz',
    `CREATE TABLE svc_customers (
  user_id text PRIMARY KEY,
  max_budget double precision,
  spend double precision NOT NULL DEFAULT 0,
  budget_duration text,
  budget_reset_at timestamptz,
  blocked boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
)`,
  ],
};
