import { z } from 'zod';
import { insertAudit } from '../db/audit-repo.js';
import type { Queryable } from '../db/database.js';
import { asDuplicateError } from '../db/db-errors.js';
import { keysOwnedBy } from '../db/keys-repo.js';
import { type ColumnValues, lockRow, updateColumns } from '../db/update-columns.js';
import { ProxyError } from '../http/proxy-error.js';
import type { ProxyContext } from '../proxy-context.js';
import { auditRow, changesOf, keyName } from './audit-trail.js';
import { idField } from './management-fields.js';

/** A kind of record the update and delete routes manage: teams, users, organizations. */
export interface OwnerKind<R extends object> {
  /** `team`, `user`, `organization`: the audit object type and the error codes' prefix. */
  type: string;
  /** The id field of bodies and rows: `team_id`... */
  idField: string;
  table: { table: string; idColumn: string; columns: string };
  /** Deletes the records with these ids (and what depends on them); returns those deleted. */
  remove(tx: Queryable, ids: readonly string[]): Promise<R[]>;
  /** What still names these ids and keeps them from being deleted (409), as `owner: names` lines. */
  dependents(tx: Queryable, ids: readonly string[]): Promise<string[]>;
}

/** `{ <ids_field>: [...] }`: 1 to 100 ids. */
export const idsSchema = (field: string) =>
  z.strictObject({ [field]: z.array(idField).min(1).max(100) }) as z.ZodType<Record<string, string[]>>;

const quoted = (ids: readonly string[]) => ids.map((id) => `\`${id}\``).join(', ');

/** The keys naming these ids in `column`, grouped per id: `team \`t1\`: keys a, 1f2e3d4c`. */
export async function keyDependents(
  tx: Queryable,
  type: string,
  column: 'team_id' | 'user_id' | 'organization_id',
  ids: readonly string[],
): Promise<string[]> {
  const byOwner = new Map<string, string[]>();
  for (const key of await keysOwnedBy(tx, column, ids)) {
    byOwner.set(key.owner, [...(byOwner.get(key.owner) ?? []), keyName(key)]);
  }
  return [...byOwner].map(([owner, names]) => `${type} \`${owner}\` has keys ${names.join(', ')}`);
}

/**
 * Sets `values` on the record `id` in one transaction with its audit row; `also` runs in it after the
 * row changed (memberships). 404 naming the id when there is none; 409 for a taken alias.
 */
export async function updateOwner<R extends object>(
  ctx: ProxyContext,
  kind: OwnerKind<R>,
  actor: string,
  id: string,
  values: ColumnValues,
  also?: (tx: Queryable) => Promise<{ before: object; after: object }>,
): Promise<R> {
  if (Object.keys(values).length === 0 && !also) {
    const what = `/${kind.type}/update body`;
    throw new ProxyError(400, 'invalid_request', `Invalid ${what}: give at least one field to change.`);
  }
  try {
    return await ctx.db.transaction(async (tx) => {
      const before = await lockRow<R>(tx, kind.table, id);
      if (!before) throw new ProxyError(404, `${kind.type}_not_found`, `No ${kind.type} \`${id}\`.`);
      const after =
        Object.keys(values).length > 0
          ? ((await updateColumns<R>(tx, kind.table, id, values)) ?? before)
          : before;
      const extra = also ? await also(tx) : { before: {}, after: {} };
      const changes = changesOf(kind.idField, { ...before, ...extra.before }, { ...after, ...extra.after });
      await insertAudit(tx, [auditRow(actor, 'update', kind.type, id, changes)]);
      return after;
    });
  } catch (error) {
    throw asDuplicateError(error, kind.type) ?? error;
  }
}

/**
 * Deletes the records `ids`, all or none, in one transaction with an audit row each: 404 naming every
 * id that does not exist, 409 naming what still depends on them (a team's or user's keys).
 */
export async function deleteOwners<R extends object>(
  ctx: ProxyContext,
  kind: OwnerKind<R>,
  actor: string,
  ids: readonly string[],
): Promise<string[]> {
  const unique = [...new Set(ids)];
  return ctx.db.transaction(async (tx) => {
    const found = new Set<string>();
    for (const id of unique) if (await lockRow(tx, kind.table, id)) found.add(id);
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length > 0)
      throw new ProxyError(
        404,
        `${kind.type}_not_found`,
        `No ${kind.type} ${quoted(missing)}; nothing deleted.`,
      );
    const dependents = await kind.dependents(tx, unique);
    if (dependents.length > 0) {
      throw new ProxyError(
        409,
        `${kind.type}_in_use`,
        `Cannot delete: ${dependents.join('; ')}. Delete or move them first; nothing deleted.`,
      );
    }
    const removed = await kind.remove(tx, unique);
    const rows = removed.map((row) => {
      const id = String((row as Record<string, unknown>)[kind.idField]);
      return auditRow(actor, 'delete', kind.type, id, changesOf(kind.idField, row, undefined));
    });
    await insertAudit(tx, rows);
    return rows.map((row) => row.object_id).sort();
  });
}
