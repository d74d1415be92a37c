import type { Caller } from '../auth/caller.js';
import type { FieldChange, NewAuditRow } from '../db/audit-repo.js';
import { textProblem } from './storable-fields.js';

/** How many characters of a key's hash name it in audit rows and errors (CONTRACT 6.6). */
export const KEY_PREFIX_LENGTH = 8;

/** A key as an audit row or an error names it: the first characters of its hash, never the hash. */
export const keyRef = (keyHash: string): string => keyHash.slice(0, KEY_PREFIX_LENGTH);

/** A key as a 409 names it: its alias, else its hash prefix. */
export const keyName = (key: { key_alias: string | null; key_hash: string }): string =>
  key.key_alias ?? keyRef(key.key_hash);

/**
 * Who made a management write, as its audit row says: `master_key` (a label, never the key), or an
 * admin token's identity (`jwt:<user id>`, else its email, else `jwt:admin`). An identity the database
 * cannot store as text is replaced by a label saying so.
 */
export function actorOf(caller: Caller): string {
  if (caller.kind === 'master') return 'master_key';
  if (caller.kind === 'key') return `key:${keyRef(caller.key.keyHash)}`;
  const id = caller.auth.user_id ?? caller.auth.user_email;
  if (id === undefined) return 'jwt:admin';
  return textProblem(id) === undefined ? `jwt:${id.slice(0, 256)}` : 'jwt:(unstorable id)';
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

// never in an audit row: a key's hash (a prefix names the key), running totals, bookkeeping times
const NOT_AUDITED = new Set(['key_hash', 'spend', 'created_at', 'updated_at']);

/**
 * The fields whose values differ between `before` and `after` (either may be undefined: created or
 * deleted), each with both values; `id` (the object's id column) and what is never audited are left out.
 * Every other column is compared, so a column added later is audited without a change here.
 */
export function changesOf(
  id: string,
  before: object | undefined,
  after: object | undefined,
): Record<string, FieldChange> {
  const was = (before ?? {}) as Record<string, unknown>;
  const now = (after ?? {}) as Record<string, unknown>;
  const changes: Record<string, FieldChange> = {};
  for (const field of new Set([...Object.keys(was), ...Object.keys(now)])) {
    if (field === id || NOT_AUDITED.has(field)) continue;
    const a = toJson(was[field] ?? null);
    const b = toJson(now[field] ?? null);
    if (!same(a, b)) changes[field] = { before: a, after: b };
  }
  return changes;
}

const toJson = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** One audit row of `actor` doing `action` on an object. */
export function auditRow(
  actor: string,
  action: string,
  objectType: string,
  objectId: string,
  changes: Record<string, FieldChange> = {},
): NewAuditRow {
  return { actor, action, object_type: objectType, object_id: objectId, changes };
}
