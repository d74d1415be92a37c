import type { Migration } from '../migrate.js';

// The audit table: one row per object a management write changed, newest first by id. `changes` holds
// `{ field: { before, after } }` with no secret and no key hash beyond a prefix (the route redacts).
// `svc_key_grace` keeps the hash of a regenerated key's old secret until its grace period ends: auth
// reads it only when the hash names no key.
export const keyLifecycleAudit: Migration = {
  name: '007-key-lifecycle-audit',
  statements: [
    `CREATE TABLE svc_audit_logs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  actor text NOT NULL,
  action text NOT NULL,
  object_type text NOT NULL,
  object_id text NOT NULL,
  changes jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
)`,
    'CREATE INDEX svc_audit_logs_object_idx ON svc_audit_logs (object_type, object_id, id DESC)',
    `CREATE TABLE svc_key_grace (
  old_hash text PRIMARY KEY,
  key_hash text NOT NULL,
  expires_at timestamptz NOT NULL
)`,
    'CREATE INDEX svc_key_grace_key_idx ON svc_key_grace (key_hash)',
  ],
};
