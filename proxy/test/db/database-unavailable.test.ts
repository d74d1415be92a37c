import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { DatabaseUnavailableError } from '../../src/db/db-errors.js';
import { openDatabase } from '../../src/db/open-database.js';
import { connectPgliteWorker } from '../../src/db/pglite-worker-database.js';
import { errorReply } from '../../src/http/proxy-error.js';
import { POSTGRES_URL } from '../db-engines.js';
import { type CutProxy, startCutProxy } from '../tcp-cut-proxy.js';

const PASSWORD = 'hunter22-db-secret';

/** What the proxy answers for `error`: status and code. */
const answered = (error: unknown) => {
  const { status, body } = errorReply(error);
  return { status, code: body.error.code };
};

// Every database error at query time that says the database cannot serve now is a
// DatabaseUnavailableError, which the proxy answers 503 database_unavailable; errors of the statement
// itself stay what they are.
describe('Postgres errors at query time', () => {
  let cut: CutProxy;
  let db: Database;
  beforeAll(async () => {
    const target = new URL(POSTGRES_URL);
    cut = await startCutProxy({ host: target.hostname, port: Number(target.port || 5432) });
    // trust auth ignores the password: it is here to be looked for in messages
    const url = `postgres://${target.username}:${PASSWORD}@127.0.0.1:${cut.port}${target.pathname}`;
    db = await openDatabase({ url, statementTimeoutMs: 50 });
  });
  afterAll(async () => {
    cut.restore();
    await db.close();
    await cut.close();
  });

  it('a query while the server is cut off is unavailable, naming the host and never the password', async () => {
    cut.cut();
    try {
      const error = await db.query('SELECT 1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DatabaseUnavailableError);
      expect((error as Error).message).toMatch(
        new RegExp(`^The database at 127\\.0\\.0\\.1:${cut.port}/test is not answering: `),
      );
      expect((error as Error).message).not.toContain(PASSWORD);
      expect(answered(error)).toEqual({ status: 503, code: 'database_unavailable' });
    } finally {
      cut.restore();
    }
  });

  it('a transaction whose connection is dropped mid-statement is unavailable', async () => {
    const dropped = cut.dropAnswerTo('svc_marker_tx');
    const error = await db.transaction((tx) => tx.query("SELECT 'svc_marker_tx'")).catch((e: unknown) => e);
    await dropped;
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect((error as Error).message).toContain('terminated');
  });

  it('a statement cancelled by statement_timeout is unavailable', async () => {
    const error = await db.query('SELECT pg_sleep(1)').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(((error as Error).cause as { code: string }).code).toBe('57014');
  });

  it("a statement's own error is not: it keeps its SQLSTATE and is no 503", async () => {
    const error = await db.query('SELECT * FROM no_such_table').catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(DatabaseUnavailableError);
    expect((error as { code: string }).code).toBe('42P01');
    expect(answered(error).status).toBe(500);
  });

  it('serves again once the server is reachable', async () => {
    expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});

describe('the embedded database when its worker fails', () => {
  it('rejects queries as unavailable, which the proxy answers 503 database_unavailable', async () => {
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       parentPort.on('message', () => process.exit(3));
       parentPort.postMessage({ ready: true });`,
      { eval: true },
    );
    const db = await connectPgliteWorker(worker, 'memory');
    const error = await db.query('SELECT 1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(answered(error)).toEqual({ status: 503, code: 'database_unavailable' });
    await db.close();
  });
});
