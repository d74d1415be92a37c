/**
 * The proxy's database, whichever engine serves it: node-postgres when a `database_url` is set, else an
 * embedded PGlite database. Both speak the same SQL; nothing outside `proxy/db/` imports either driver.
 */

/** Something SQL can be sent to: the database itself, or one transaction on it. */
export interface Queryable {
  /** Runs one statement with `$1`-style parameters. */
  query<R extends object = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<{ rows: R[] }>;
  /**
   * Loads rows into `target` (a table and its column list, e.g. `t (a, b)`) from `text`, in COPY's text
   * format (copy-text.ts). The embedded engine only: its COPY is far cheaper per row than a statement
   * that parses the same rows; node-postgres has no COPY of its own.
   */
  copyIn?(target: string, text: string): Promise<void>;
}

/** An open database. */
export interface Database extends Queryable {
  /** Which engine serves it, for `/health/readiness` and logs. */
  readonly engine: 'postgres' | 'pglite';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Releases connections (or the embedded engine). */
  close(): Promise<void>;
}
