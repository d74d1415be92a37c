import pg from 'pg';
import type { Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { type OpenDatabaseOptions, openDatabase } from '../src/db/open-database.js';
import { pgliteTemplate } from './pglite-template.js';

/** The shared test server (trust auth); `SVC_TEST_DATABASE_URL` overrides. */
export const POSTGRES_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** One database engine a suite runs on. */
export interface DbEngine {
  readonly name: 'pglite' | 'postgres';
  /** A fresh, empty database (on Postgres: in a schema of its own). `closeTestDatabases` ends it. */
  open(): Promise<Database>;
  /**
   * Two databases on the same fresh tables, opened at the same time, as two processes starting at once
   * would (Postgres: two pools on one new schema; PGlite has one session, so both are the same one).
   */
  openTwo(): Promise<[Database, Database]>;
}

const opened: Database[] = [];
const schemas = new Map<Database, string>();
let counter = 0;

const uniqueSchema = () =>
  `svc_test_${process.pid}_${++counter}_${Math.floor(Math.random() * 1e9).toString(36)}`;

function track(db: Database, schema?: string): Database {
  opened.push(db);
  if (schema !== undefined) schemas.set(db, schema);
  return db;
}

const openPglite = async () => track(await openDatabase({ pgliteTemplate: await pgliteTemplate() }));

export const pgliteEngine: DbEngine = {
  name: 'pglite',
  open: openPglite,
  openTwo: async () => {
    const db = await openPglite();
    return [db, db];
  },
};

export const postgresEngine: DbEngine = {
  name: 'postgres',
  open: async () => {
    const schema = uniqueSchema();
    return track(await openDatabase({ url: POSTGRES_URL, schema }), schema);
  },
  openTwo: async () => {
    const schema = uniqueSchema();
    const open = async () => track(await openDatabase({ url: POSTGRES_URL, schema }), schema);
    return Promise.all([open(), open()]);
  },
};

/** Both engines, for `describe.each(engines)('... ($name)', (engine) => ...)`. */
export const engines: readonly DbEngine[] = [pgliteEngine, postgresEngine];

/**
 * A fresh schema, migrated, on the Postgres server reached at `url` (a test's TCP proxy in front of
 * the test server, say); `closeTestDatabases` drops it.
 */
export async function openPostgresVia(
  url: string,
  options: Omit<OpenDatabaseOptions, 'url' | 'schema'> = {},
): Promise<Database> {
  const schema = uniqueSchema();
  const db = track(await openDatabase({ ...options, url, schema }), schema);
  await migrate(db);
  return db;
}

/** A fresh database of this engine with the schema applied. */
export async function openMigrated(engine: DbEngine): Promise<Database> {
  const db = await engine.open();
  await migrate(db);
  return db;
}

/** Closes every database this helper opened and drops the schemas it created (for `afterAll`). */
export async function closeTestDatabases(): Promise<void> {
  const dbs = opened.splice(0);
  await Promise.all([...new Set(dbs)].map((db) => db.close().catch(() => undefined)));
  const drop = [...new Set(dbs.map((db) => schemas.get(db)).filter((s) => s !== undefined))];
  if (drop.length === 0) return;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    for (const schema of drop) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
