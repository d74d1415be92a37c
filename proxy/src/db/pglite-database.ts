import { existsSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Database, Queryable } from './database.js';
import { DatabaseUnavailableError } from './db-errors.js';
import { quoteIdentifier } from './sql-identifier.js';

/** Where the embedded database keeps its files. */
export interface PgliteOptions {
  /** A directory (created when missing); in memory when absent. */
  dataDir?: string | undefined;
  /** Every table lives in this schema (created when missing). */
  schema?: string | undefined;
  /**
   * A new database starts as a copy of this one (a data directory dumped by PGlite's `dumpDataDir`)
   * instead of being initialised: under a second instead of two or three. Unused when `dataDir`
   * already holds a database.
   */
  template?: Blob | undefined;
}

const asQueryable = (db: PGlite | Transaction): Required<Queryable> => ({
  query: async <R extends object>(sql: string, params?: readonly unknown[]) => {
    const result = await db.query<R>(sql, params as unknown[] | undefined);
    return { rows: result.rows };
  },
  // PGlite reads COPY's input from a blob it names /dev/blob
  copyIn: async (target: string, text: string) => {
    await db.query(`COPY ${target} FROM '/dev/blob'`, [], { blob: new Blob([text]) });
  },
});

/**
 * Started with PGlite's own parameters and a buffer pool of 32 MB. The pool is resident from
 * the start (WebAssembly memory, never given back): with PGlite's default, Postgres' 128 MB, the
 * gateway held about 160 MB more under load (npm run soak:gateway), and with time-ordered call ids
 * (http/call-id.ts) the two wrote a spend row as fast a million and 2.5 million rows in (23.4 and
 * 23.8 µs, 21.7 and 22.1). Given at each start, not in postgresql.conf, which stays
 * as initdb (or its owner) wrote it.
 */
const BUFFER_POOL = ['-c', 'shared_buffers=32MB'];

/** The engine's file-system error numbers (Emscripten's) a data directory can meet, in words. */
const FILE_SYSTEM_ERRORS: Readonly<Record<number, string>> = {
  2: 'permission denied',
  20: 'a file already exists',
  29: 'input/output error',
  31: 'a directory where a file was expected',
  44: 'no such file or directory',
  51: 'no space left on the device',
  54: 'a file where a directory was expected',
  55: 'a directory is not empty',
  63: 'operation not permitted',
  69: 'read-only file system',
};

/**
 * Why the engine failed, in words: its file system throws plain objects (`{ name: 'ErrnoError',
 * errno: 51 }`), which `String()` makes `[object Object]`.
 */
function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  const { name, errno } = (error ?? {}) as { name?: unknown; errno?: unknown };
  if (typeof name === 'string' && typeof errno === 'number')
    return `its file system failed: ${FILE_SYSTEM_ERRORS[errno] ?? 'an error'} (${name} ${errno})`;
  return String(error);
}

/** Whether `dataDir` already holds a database (else opening it runs PGlite's initdb). */
export const holdsDatabase = (dataDir: string): boolean => existsSync(join(dataDir, 'PG_VERSION'));

/** What the engine cannot start without, besides PG_VERSION: each one's absence fails it. */
const ESSENTIAL = ['global/pg_control', 'base', 'pg_wal', 'pg_xact', 'postgresql.conf'];

/**
 * Whether nothing is at `path`: not a file that cannot be read (EACCES), which is no sign of a
 * database cut short, and for which moving the directory away would set aside a whole one.
 */
function isAbsent(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}

/**
 * Why a directory with a PG_VERSION did not open, when it lacks part of a database: the engine says
 * only `Aborted()` or `PGlite failed to initialize properly`. Earlier builds created the database in
 * place (now it is made aside, pglite-worker-database.ts), and one cut short (killed, a full disk)
 * left such a directory behind.
 */
function incompleteDatabase(dataDir: string): string | undefined {
  const missing = ESSENTIAL.filter((entry) => isAbsent(join(dataDir, entry)));
  if (missing.length === 0) return undefined;
  return `it holds an incomplete database (${missing.join(', ')} missing), as a creation cut short leaves: move the directory away, or set another data_dir, and a new database is created there`;
}

/**
 * A Database on PGlite (PostgreSQL compiled to WebAssembly, in the calling thread: the proxy reaches it
 * through pglite-worker-database.ts, off its event loop). It has one session: statements and
 * transactions are served one at a time, in order.
 */
class PgliteDatabase implements Database {
  readonly engine = 'pglite' as const;
  readonly query: Queryable['query'];
  readonly copyIn: Required<Queryable>['copyIn'];

  constructor(private readonly db: PGlite) {
    const queryable = asQueryable(db);
    this.query = queryable.query;
    this.copyIn = queryable.copyIn;
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(asQueryable(tx)));
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

/**
 * Opens (or creates) an embedded PGlite database, in the calling thread (pglite-worker.ts). Only one
 * process may open a given `dataDir`; `schema` is a name `quoteSchemaName` accepted.
 * @throws DatabaseUnavailableError naming the directory when it cannot be created or holds no usable
 * database.
 */
export async function openPglite(options: PgliteOptions): Promise<Database> {
  // checked by the caller (openPgliteWorker, on the proxy's thread): schema-name.ts would load the
  // whole library into this thread for its ConfigError, half a second and its heap
  const quoted = options.schema === undefined ? undefined : quoteIdentifier(options.schema);
  const where = options.dataDir ?? 'memory';
  let db: PGlite;
  let kept = false;
  try {
    if (options.dataDir !== undefined) await mkdir(options.dataDir, { recursive: true });
    // loaded on first use: the WebAssembly engine costs a noticeable start, paid only without a URL
    const { PGlite } = await import('@electric-sql/pglite');
    const fresh = options.dataDir === undefined || !holdsDatabase(options.dataDir);
    kept = !fresh;
    const template = fresh ? options.template : undefined;
    db = await PGlite.create(options.dataDir, {
      startParams: [...PGlite.defaultStartParams, ...BUFFER_POOL],
      ...(template === undefined ? {} : { loadDataDir: template }),
    });
  } catch (error) {
    const incomplete = kept ? incompleteDatabase(options.dataDir!) : undefined;
    throw new DatabaseUnavailableError(
      `Cannot open the embedded database at ${where}: ${incomplete ?? reasonOf(error)}`,
    );
  }
  if (quoted !== undefined) {
    await db.exec(`CREATE SCHEMA IF NOT EXISTS ${quoted}; SET search_path TO ${quoted};`);
  }
  return new PgliteDatabase(db);
}
