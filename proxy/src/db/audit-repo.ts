import type { Queryable } from './database.js';

/** One field's value before and after a change (null: unset, or the object did not exist). */
export interface FieldChange {
  before: unknown;
  after: unknown;
}

/** An audit row to write. The route redacts: no secret, no key hash beyond a prefix. */
export interface NewAuditRow {
  /** Who: `master_key`, or the admin identity (`jwt:<user id>`). */
  actor: string;
  /** What was done: `create`, `update`, `delete`, `block`, `unblock`, `regenerate`, ... */
  action: string;
  /** `key`, `team`, `user`, `organization`, `jwt_key_mapping`, `router_settings`. */
  object_type: string;
  /** The object's id; a key's is the first 8 characters of its hash. */
  object_id: string;
  changes: Readonly<Record<string, FieldChange>>;
}

/** A stored audit row. */
export interface AuditRow extends NewAuditRow {
  id: number;
  created_at: Date;
}

/** Which audit rows `listAudit` reads; every filter given must hold. */
export interface AuditFilter {
  object_type?: string | undefined;
  object_id?: string | undefined;
  action?: string | undefined;
  /** Rows written at or after this time. */
  since?: Date | undefined;
}

/** Writes audit rows (in the caller's transaction, so a change and its record commit together). */
export async function insertAudit(db: Queryable, rows: readonly NewAuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO svc_audit_logs (actor, action, object_type, object_id, changes)
SELECT r->>'actor', r->>'action', r->>'object_type', r->>'object_id', r->'changes'
FROM jsonb_array_elements($1::jsonb) AS r`,
    [JSON.stringify(rows)],
  );
}

/** One page of audit rows matching `filter`, newest first, and how many match in all. */
export async function listAudit(
  db: Queryable,
  filter: AuditFilter,
  page: number,
  size: number,
): Promise<{ rows: AuditRow[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (column: string, op: string, value: unknown) => {
    if (value === undefined) return;
    params.push(value);
    where.push(`${column} ${op} $${params.length}`);
  };
  add('object_type', '=', filter.object_type);
  add('object_id', '=', filter.object_id);
  add('action', '=', filter.action);
  add('created_at', '>=', filter.since);
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const [{ rows }, counted] = await Promise.all([
    db.query<AuditRow & { id: string | number }>(
      `SELECT id, actor, action, object_type, object_id, changes, created_at FROM svc_audit_logs ${clause}
ORDER BY id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, size, (page - 1) * size],
    ),
    db.query<{ total: string | number }>(`SELECT count(*) AS total FROM svc_audit_logs ${clause}`, params),
  ]);
  return {
    rows: rows.map((row) => ({ ...row, id: Number(row.id) })),
    total: Number(counted.rows[0]?.total ?? 0),
  };
}
