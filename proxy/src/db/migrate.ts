import type { Database } from './database.js';
import { migrations as allMigrations } from './migrations/index.js';

/** One step of the schema: its statements run in order, in the transaction of the whole migration run. */
export interface Migration {
  /** `NNN-name`, unique; recorded in `svc_schema_migrations` once applied. */
  readonly name: string;
  /** One SQL statement each (no parameters). */
  readonly statements: readonly string[];
}

/** What a `migrate` call did. */
export interface MigrateResult {
  /** Names of the migrations this call applied, in order; empty when the schema was already current. */
  applied: string[];
}

// first key of the two-int advisory lock ('svc' in ASCII); the second is the schema, so schemas
// migrate independently
const MIGRATION_LOCK = 0x737663;

/**
 * Brings the schema up to date: applies, in order and in one transaction, every migration not yet
 * recorded in `svc_schema_migrations`. Idempotent. Safe when several processes start at once: a
 * transaction-scoped advisory lock makes the others wait, and they then find nothing left to apply.
 *
 * @example
 * const db = await openDatabase({ url: process.env.DATABASE_URL });
 * const { applied } = await migrate(db); // ['001-initial'] the first time, [] after
 * @throws the database's error when a statement fails; nothing of the run is then applied.
 */
export function migrate(
  db: Database,
  options: { migrations?: readonly Migration[] } = {},
): Promise<MigrateResult> {
  const migrations = options.migrations ?? allMigrations;
  return db.transaction(async (tx) => {
    // coalesce: with no schema on the search path the lock key would be null, and a null key locks nothing
    await tx.query("SELECT pg_advisory_xact_lock($1, hashtext(coalesce(current_schema(), '')))", [
      MIGRATION_LOCK,
    ]);
    await tx.query(`CREATE TABLE IF NOT EXISTS svc_schema_migrations (
  name text PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
)`);
    const { rows } = await tx.query<{ name: string }>('SELECT name FROM svc_schema_migrations');
    const done = new Set(rows.map((row) => row.name));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.name)) continue;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO svc_schema_migrations (name) VALUES ($1)', [migration.name]);
      applied.push(migration.name);
    }
    return { applied };
  });
}
