import { ConfigError, redactSecrets } from '@svc/router';
import type { CustomTypesConfig, Pool, PoolClient } from 'pg';
import type { Database, Queryable } from './database.js';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './db-errors.js';
import { quoteSchemaName } from './schema-name.js';

/** How to reach a PostgreSQL server, and how long to wait for it. Times in milliseconds. */
export interface PostgresOptions {
  /** `postgres://user:password@host:5432/db` (or `postgresql://`); query parameters such as `sslmode` apply. */
  url: string;
  /** Every table lives in this schema (created when missing); the server's default when absent. */
  schema?: string | undefined;
  /** Connections at most. @default 10 */
  poolSize?: number | undefined;
  /** A statement running longer is cancelled by the server. @default 30000 */
  statementTimeoutMs?: number | undefined;
  /** Waiting longer for a connection fails the query. @default 5000 */
  connectTimeoutMs?: number | undefined;
  /** Told about errors of idle connections (the server restarted, the network dropped); message only. */
  onError?: ((error: Error) => void) | undefined;
}

/** Where the URL points, for messages, and the password to keep out of them. */
interface Target {
  shown: string;
  password: string;
}

function readTarget(url: string): Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('database_url', [
      'database_url: expected a URL such as postgres://user@host:5432/db',
    ]);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new ConfigError('database_url', [
      `database_url: expected the postgres:// or postgresql:// scheme, got ${parsed.protocol}//`,
    ]);
  const host = parsed.host || parsed.searchParams.get('host') || 'localhost';
  return { shown: `${host}${parsed.pathname}`, password: decodeURIComponent(parsed.password) };
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // a refused connection to a name with several addresses is an AggregateError with no message
  return error.message || (error as { code?: string }).code || error.name;
}

const INT8_OID = 20;

// counts and bigint columns as numbers, as PGlite gives them: one shape of row whichever engine answers
function typesWithNumericInt8(builtin: CustomTypesConfig): CustomTypesConfig {
  const getTypeParser = (oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? Number : builtin.getTypeParser(oid, format);
  return { getTypeParser: getTypeParser as CustomTypesConfig['getTypeParser'] };
}

const asQueryable = (client: Pool | PoolClient): Queryable => ({
  query: async <R extends object>(sql: string, params?: readonly unknown[]) => {
    const result = await client.query(sql, params as unknown[] | undefined);
    return { rows: result.rows as R[] };
  },
});

/**
 * A Database over a pg Pool. Transactions hold one pooled connection from BEGIN to COMMIT. A query or
 * transaction that fails because the server is unreachable, lost the connection or cannot serve now
 * rejects with a DatabaseUnavailableError naming the host (never the password); any other error as is.
 */
class PostgresDatabase implements Database {
  readonly engine = 'postgres' as const;
  readonly #query: Queryable['query'];

  constructor(
    private readonly pool: Pool,
    private readonly target: Target,
  ) {
    this.#query = asQueryable(pool).query;
  }

  query = <R extends object>(sql: string, params?: readonly unknown[]): Promise<{ rows: R[] }> =>
    this.#query<R>(sql, params).catch((error: unknown) => this.#failed(error));

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, (client) => fn(asQueryable(client))).catch((error: unknown) =>
      this.#failed(error),
    );
  }

  #failed(error: unknown): never {
    if (error instanceof DatabaseUnavailableError || !isDatabaseUnavailable(error)) throw error;
    const reason = redactSecrets(reasonOf(error), [this.target.password]);
    throw new DatabaseUnavailableError(`The database at ${this.target.shown} is not answering: ${reason}`, {
      cause: error,
    });
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/**
 * Runs `fn` between BEGIN and COMMIT (ROLLBACK when it throws) on one pooled connection. A connection
 * that failed is destroyed rather than returned to the pool.
 */
async function inTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // a checked-out client has no listener of the pool's: a dropped connection would crash the process
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken ??= rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}

function createSchema(pool: Pool, quoted: string): Promise<void> {
  return inTransaction(pool, async (client) => {
    // two processes creating the same schema at once would collide on the catalog's unique index
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('svc_schema:' || $1))`, [quoted]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
  });
}

/**
 * Opens a pool on a PostgreSQL server and checks that it answers (creating `schema` when given).
 * @throws ConfigError when the URL or the schema name is invalid; DatabaseUnavailableError naming the
 * host and database (never the password) when the server cannot be reached or refuses the login.
 */
export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const target = readTarget(options.url);
  const quoted = options.schema === undefined ? undefined : quoteSchemaName(options.schema);
  const statementTimeoutMs = options.statementTimeoutMs ?? 30_000;
  const pg = (await import('pg')).default;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: statementTimeoutMs,
    // the server cancels at statement_timeout; this catches a server that stopped answering at all
    query_timeout: statementTimeoutMs + 5_000,
    idle_in_transaction_session_timeout: 60_000,
    keepAlive: true,
    application_name: 'svc-router',
    options: quoted === undefined ? undefined : `-c search_path=${quoted}`,
    types: typesWithNumericInt8(pg.types),
  });
  const redact = (error: unknown) => redactSecrets(reasonOf(error), [target.password]);
  // without a listener, an idle connection's error (server restart, network drop) crashes the process
  pool.on('error', (error) => options.onError?.(new Error(redact(error))));
  try {
    if (quoted === undefined) await pool.query('SELECT 1');
    else await createSchema(pool, quoted);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailableError(`Cannot connect to the database at ${target.shown}: ${redact(error)}`);
  }
  return new PostgresDatabase(pool, target);
}
