import type { Migration } from '../migrate.js';

// Money is double precision (dollars), token counts integer, times timestamptz, free-form data jsonb:
// types PGlite and PostgreSQL read and write identically. Ids are text: callers choose them.
const created = `created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()`;

/** The first schema: keys, users, teams, organizations, memberships, spend logs, JWT mappings, settings. */
export const initial: Migration = {
  name: '001-initial',
  statements: [
    `CREATE TABLE svc_organizations (
  organization_id text PRIMARY KEY,
  organization_alias text UNIQUE,
  models jsonb NOT NULL DEFAULT '[]',
  max_budget double precision,
  spend double precision NOT NULL DEFAULT 0,
  metadata jsonb NOT NULL DEFAULT '{}',
  ${created}
)`,
    `CREATE TABLE svc_teams (
  team_id text PRIMARY KEY,
  team_alias text UNIQUE,
  organization_id text,
  models jsonb NOT NULL DEFAULT '[]',
  blocked boolean NOT NULL DEFAULT false,
  max_budget double precision,
  spend double precision NOT NULL DEFAULT 0,
  rpm_limit integer,
  tpm_limit integer,
  metadata jsonb NOT NULL DEFAULT '{}',
  ${created}
)`,
    'CREATE INDEX svc_teams_organization_idx ON svc_teams (organization_id)',
    `CREATE TABLE svc_users (
  user_id text PRIMARY KEY,
  user_role text,
  user_email text,
  max_budget double precision,
  spend double precision NOT NULL DEFAULT 0,
  metadata jsonb NOT NULL DEFAULT '{}',
  ${created}
)`,
    // users need not exist as rows (a JWT identity may be charged without one): no foreign key on user_id
    `CREATE TABLE svc_team_memberships (
  team_id text NOT NULL REFERENCES svc_teams (team_id) ON DELETE CASCADE,
  user_id text NOT NULL,
  role text NOT NULL DEFAULT 'user',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, user_id)
)`,
    'CREATE INDEX svc_team_memberships_user_idx ON svc_team_memberships (user_id)',
    // only a hash of each key is ever stored; the key itself is shown once, at creation
    `CREATE TABLE svc_keys (
  key_hash text PRIMARY KEY,
  key_alias text UNIQUE,
  models jsonb NOT NULL DEFAULT '[]',
  team_id text,
  user_id text,
  organization_id text,
  max_budget double precision,
  spend double precision NOT NULL DEFAULT 0,
  rpm_limit integer,
  tpm_limit integer,
  expires_at timestamptz,
  metadata jsonb NOT NULL DEFAULT '{}',
  blocked boolean NOT NULL DEFAULT false,
  ${created}
)`,
    'CREATE INDEX svc_keys_team_idx ON svc_keys (team_id)',
    'CREATE INDEX svc_keys_user_idx ON svc_keys (user_id)',
    `CREATE TABLE svc_spend_logs (
  call_id text PRIMARY KEY,
  key_hash text,
  user_id text,
  team_id text,
  organization_id text,
  end_user text,
  model_group text,
  model_id text,
  provider text,
  route text,
  prompt_tokens integer NOT NULL DEFAULT 0,
  completion_tokens integer NOT NULL DEFAULT 0,
  total_tokens integer NOT NULL DEFAULT 0,
  cost double precision NOT NULL DEFAULT 0,
  status text NOT NULL CHECK (status IN ('success', 'failure')),
  error_code text,
  http_status integer,
  latency_ms double precision,
  cache_hit boolean NOT NULL DEFAULT false,
  stream boolean NOT NULL DEFAULT false,
  start_time timestamptz NOT NULL,
  end_time timestamptz NOT NULL
)`,
    // newest first, by owner or overall: each filter of GET /spend/logs walks one index backwards
    'CREATE INDEX svc_spend_logs_key_time_idx ON svc_spend_logs (key_hash, start_time DESC)',
    'CREATE INDEX svc_spend_logs_user_time_idx ON svc_spend_logs (user_id, start_time DESC)',
    'CREATE INDEX svc_spend_logs_team_time_idx ON svc_spend_logs (team_id, start_time DESC)',
    'CREATE INDEX svc_spend_logs_time_idx ON svc_spend_logs (start_time DESC)',
    `CREATE TABLE svc_jwt_key_mappings (
  id text PRIMARY KEY,
  jwt_claim_name text NOT NULL,
  jwt_claim_value text NOT NULL,
  key_hash text NOT NULL,
  description text,
  is_active boolean NOT NULL DEFAULT true,
  ${created},
  UNIQUE (jwt_claim_name, jwt_claim_value)
)`,
    'CREATE INDEX svc_jwt_key_mappings_key_idx ON svc_jwt_key_mappings (key_hash)',
    // persisted router_settings (POST /config/update): version lets processes see a newer value
    `CREATE TABLE svc_settings (
  name text PRIMARY KEY,
  value jsonb NOT NULL,
  version bigint NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now()
)`,
  ],
};
