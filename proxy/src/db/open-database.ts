import type { Database } from './database.js';
import { openPgliteWorker } from './pglite-worker-database.js';
import { openPostgres, type PostgresOptions } from './postgres-database.js';

/** Which database to open. */
export interface OpenDatabaseOptions extends Omit<PostgresOptions, 'url'> {
  /**
   * A PostgreSQL URL (`DATABASE_URL` or `general_settings.database_url`): node-postgres serves it.
   * Absent: the embedded PGlite engine.
   */
  url?: string | undefined;
  /**
   * Where PGlite keeps its files (created when missing); in memory when absent. Ignored with `url`.
   * The proxy passes `.svc-router/` next to its config file.
   */
  dataDir?: string | undefined;
  /**
   * Every table lives in this Postgres schema, created when missing (letters, digits, `_`). Lets
   * several deployments, or test files, share one database.
   */
  schema?: string | undefined;
  /**
   * PGlite only: a new embedded database starts as a copy of this dump (PGlite's `dumpDataDir`)
   * instead of being initialised, which takes seconds. For suites that open many databases.
   */
  pgliteTemplate?: Blob | undefined;
}

/**
 * Opens the proxy's database: a pooled connection to PostgreSQL when `url` is given, else PGlite
 * persisted at `dataDir` (or in memory), its engine in a worker thread. Both speak the same SQL; apply `migrate` before use.
 *
 * @example
 * const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir: '/etc/svc/.svc-router' });
 * await migrate(db);
 * @throws ConfigError when the URL or schema name is invalid; DatabaseUnavailableError naming the host
 * (never the password) or the directory when the database cannot be reached or opened.
 */
export function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const { url, dataDir, pgliteTemplate, ...rest } = options;
  if (url !== undefined && url !== '') return openPostgres({ ...rest, url });
  return openPgliteWorker({ dataDir, schema: rest.schema, template: pgliteTemplate });
}
