import type { Queryable } from './database.js';

/** Column values to set: arrays and plain objects are stored as jsonb, the rest as given. */
export type ColumnValues = Readonly<Record<string, unknown>>;

// column names come from validated request schemas, never from input text; checked anyway, since they
// are written into the statement
const COLUMN = /^[a-z_][a-z0-9_]*$/;

const isJson = (value: unknown) =>
  Array.isArray(value) || (typeof value === 'object' && value !== null && !(value instanceof Date));

/**
 * Sets `values` on the row of `table` whose `idColumn` is `id` (and `updated_at` to now); returns the
 * row as stored after the change (`columns` of it), or undefined when there is none.
 * @throws TypeError for a column name that is not a plain identifier; the driver's error otherwise
 * (a unique violation for a taken alias: the caller maps it).
 */
export async function updateColumns<R extends object>(
  db: Queryable,
  target: { table: string; idColumn: string; columns: string },
  id: string,
  values: ColumnValues,
): Promise<R | undefined> {
  const names = Object.keys(values);
  for (const name of [target.idColumn, ...names]) {
    if (!COLUMN.test(name)) throw new TypeError(`updateColumns: not a column name: ${name}`);
  }
  const params: unknown[] = [id];
  const sets = names.map((name) => {
    const value = values[name];
    params.push(isJson(value) ? JSON.stringify(value) : value);
    return `${name} = $${params.length}${isJson(value) ? '::jsonb' : ''}`;
  });
  const { rows } = await db.query<R>(
    `UPDATE ${target.table} SET ${[...sets, 'updated_at = now()'].join(', ')}
WHERE ${target.idColumn} = $1 RETURNING ${target.columns}`,
    params,
  );
  return rows[0];
}

/** Locks and reads the row of `table` whose `idColumn` is `id` (in a transaction), or undefined. */
export async function lockRow<R extends object>(
  db: Queryable,
  target: { table: string; idColumn: string; columns: string },
  id: string,
): Promise<R | undefined> {
  const { rows } = await db.query<R>(
    `SELECT ${target.columns} FROM ${target.table} WHERE ${target.idColumn} = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
}
