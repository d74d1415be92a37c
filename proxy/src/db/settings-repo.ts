import type { Queryable } from './database.js';

/** One persisted settings document (`svc_settings`): its JSON value and how many times it changed. */
export interface StoredSettings {
  value: Record<string, unknown>;
  version: number;
}

/**
 * The version of every settings row by name (one cheap statement, what each process polls). A name
 * with no row is absent.
 */
export async function settingsVersions(db: Queryable): Promise<Map<string, number>> {
  const { rows } = await db.query<{ name: string; version: number }>(
    'SELECT name, version FROM svc_settings',
  );
  return new Map(rows.map((r) => [r.name, Number(r.version)]));
}

/** The row named `name`, or undefined. `forUpdate` locks it until the transaction ends. */
export async function getSettings(
  db: Queryable,
  name: string,
  forUpdate = false,
): Promise<StoredSettings | undefined> {
  const { rows } = await db.query<StoredSettings>(
    `SELECT value, version FROM svc_settings WHERE name = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [name],
  );
  const row = rows[0];
  return row && { value: row.value, version: Number(row.version) };
}

/** Writes `value` under `name` (version 1 when new, else one more than before); returns what is stored. */
export async function putSettings(
  db: Queryable,
  name: string,
  value: Readonly<Record<string, unknown>>,
): Promise<StoredSettings> {
  const { rows } = await db.query<StoredSettings>(
    `INSERT INTO svc_settings (name, value) VALUES ($1, $2::jsonb)
ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, version = svc_settings.version + 1, updated_at = now()
RETURNING value, version`,
    [name, JSON.stringify(value)],
  );
  const row = rows[0]!;
  return { value: row.value, version: Number(row.version) };
}

/**
 * Counts one more change under `name` (a row with an empty value): what other processes watch to drop
 * cached records. Returns the new version.
 */
export async function bumpVersion(db: Queryable, name: string): Promise<number> {
  return (await putSettings(db, name, {})).version;
}
