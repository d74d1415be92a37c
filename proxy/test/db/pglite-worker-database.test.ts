import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyTextLine } from '../../src/db/copy-text.js';
import type { Database } from '../../src/db/database.js';
import { DatabaseUnavailableError, DuplicateError } from '../../src/db/db-errors.js';
import { migrate } from '../../src/db/migrate.js';
import { openDatabase } from '../../src/db/open-database.js';
import { connectPgliteWorker } from '../../src/db/pglite-worker-database.js';
import { insertTeam } from '../../src/db/teams-repo.js';
import { pgliteTemplate } from '../pglite-template.js';

const rowsOf = async (db: Database, sql: string) => (await db.query(sql)).rows;

describe('the embedded database in its worker thread', () => {
  let db: Database;
  let table = 0;
  // one table per test: the database is shared by the file
  const freshTable = async () => {
    const name = `t${++table}`;
    await db.query(`CREATE TABLE ${name} (id serial PRIMARY KEY, v text)`);
    return name;
  };

  beforeAll(async () => {
    db = await openDatabase({ pgliteTemplate: await pgliteTemplate() });
    await migrate(db);
  });
  afterAll(() => db.close());

  it('commits a transaction whose function resolves, returning its result', async () => {
    const t = await freshTable();
    const result = await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${t} (v) VALUES ('a'), ('b')`);
      return (await tx.query(`SELECT count(*) AS n FROM ${t}`)).rows[0];
    });
    expect(result).toEqual({ n: 2 });
    expect(await rowsOf(db, `SELECT v FROM ${t} ORDER BY id`)).toEqual([{ v: 'a' }, { v: 'b' }]);
  });

  it('rolls back a transaction whose function throws, rejecting with that very error', async () => {
    const t = await freshTable();
    const thrown = new Error('changed my mind');
    const outcome = db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${t} (v) VALUES ('undone')`);
      throw thrown;
    });
    await expect(outcome).rejects.toBe(thrown);
    expect(await rowsOf(db, `SELECT v FROM ${t}`)).toEqual([]);
  });

  it('runs statements sent during an open transaction after it, in the order sent', async () => {
    const t = await freshTable();
    const settled: string[] = [];
    let outside: Promise<unknown>[] = [];
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${t} (v) VALUES ('tx 1')`);
      outside = [
        db.query(`INSERT INTO ${t} (v) VALUES ('outside 1')`).then(() => settled.push('outside 1')),
        db.query(`INSERT INTO ${t} (v) VALUES ('outside 2')`).then(() => settled.push('outside 2')),
      ];
      await new Promise((resolve) => setTimeout(resolve, 30));
      await tx.query(`INSERT INTO ${t} (v) VALUES ('tx 2')`);
      settled.push('tx end');
    });
    await Promise.all(outside);
    expect(settled).toEqual(['tx end', 'outside 1', 'outside 2']);
    expect((await rowsOf(db, `SELECT v FROM ${t} ORDER BY id`)).map((r) => r.v)).toEqual([
      'tx 1',
      'tx 2',
      'outside 1',
      'outside 2',
    ]);
  });

  it('runs a statement waiting on a transaction after its rollback, without the rolled back rows', async () => {
    const t = await freshTable();
    let waiting: Promise<{ rows: object[] }> | undefined;
    const outcome = db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${t} (v) VALUES ('undone')`);
      waiting = db.query(`SELECT v FROM ${t}`);
      throw new Error('abort');
    });
    await expect(outcome).rejects.toThrow('abort');
    expect((await waiting!).rows).toEqual([]);
  });

  it('refuses statements of a transaction that has ended', async () => {
    let kept: Parameters<Parameters<Database['transaction']>[0]>[0] | undefined;
    await db.transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept!.query('SELECT 1')).rejects.toThrow('Transaction is closed');
  });

  it('loads COPY text into a table: escaped text, null and a literal \\N read back as sent', async () => {
    const t = await freshTable();
    const lines = [['plain'], [null], ['back\\slash\ttab\nline'], ['\\N']].map(copyTextLine);
    await db.copyIn!(`${t} (v)`, lines.join(''));
    expect(await rowsOf(db, `SELECT v FROM ${t} ORDER BY id`)).toEqual([
      { v: 'plain' },
      { v: null },
      { v: 'back\\slash\ttab\nline' },
      { v: '\\N' },
    ]);
  });

  it('rolls back the rows a COPY loaded in a transaction that throws', async () => {
    const t = await freshTable();
    const failure = new Error('after the copy');
    await expect(
      db.transaction(async (tx) => {
        await tx.copyIn!(`${t} (v)`, 'a\nb\n');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await rowsOf(db, `SELECT v FROM ${t}`)).toEqual([]);
  });

  it('refuses a COPY into a transaction that has ended', async () => {
    const t = await freshTable();
    let kept: Parameters<Parameters<Database['transaction']>[0]>[0] | undefined;
    await db.transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept!.copyIn!(`${t} (v)`, 'a\n')).rejects.toThrow('Transaction is closed');
  });

  it("keeps a driver error's SQLSTATE code and detail, so a unique violation is a DuplicateError", async () => {
    const t = await freshTable();
    await db.query(`INSERT INTO ${t} (id, v) VALUES (1, 'a')`);
    const raw = db.query(`INSERT INTO ${t} (id, v) VALUES (1, 'b')`);
    await expect(raw).rejects.toMatchObject({ code: '23505', detail: 'Key (id)=(1) already exists.' });

    await insertTeam(db, { team_id: 'team-dup', team_alias: 'dup' });
    const inTransaction = db.transaction((tx) =>
      insertTeam(tx, { team_id: 'team-dup-2', team_alias: 'dup' }),
    );
    await expect(inTransaction).rejects.toBeInstanceOf(DuplicateError);
    await expect(inTransaction).rejects.toMatchObject({ field: 'team_alias' });
  });

  it('gives rows the types the engine gives: numbers for counts and bigints, Dates, bytes, JSON', async () => {
    const [row] = await rowsOf(
      db,
      `SELECT count(*) AS n, 42::bigint AS big, 1.5::float8 AS f, TIMESTAMPTZ '2025-01-02T03:04:05Z' AS at,
        '\\x0102'::bytea AS bytes, '{"a":[1]}'::jsonb AS doc, true AS yes, NULL AS nothing`,
    );
    expect(row).toEqual({
      n: 1,
      big: 42,
      f: 1.5,
      at: new Date('2025-01-02T03:04:05Z'),
      bytes: new Uint8Array([1, 2]),
      doc: { a: [1] },
      yes: true,
      nothing: null,
    });
  });
});

describe('closing the embedded database', () => {
  it('rejects a query after close() as unavailable, and closes once however often called', async () => {
    const db = await openDatabase({ pgliteTemplate: await pgliteTemplate() });
    await Promise.all([db.close(), db.close()]);
    await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await expect(db.transaction(async () => 1)).rejects.toThrow('The embedded database is closed');
  });

  it('lets the process exit once closed', async () => {
    const fixture = new URL('./fixtures/open-query-close.ts', import.meta.url);
    const child = spawn(process.execPath, ['--import', 'tsx', fixture.pathname], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
    });
    const exited = once(child, 'exit');
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    const [code] = await exited;
    clearTimeout(timer);
    expect({ code, out: out.trim() }).toEqual({ code: 0, out: 'closed' });
  }, 45_000);
});

// a thread that says it opened, then fails as a worker can: an uncaught error, or exiting
const fakeWorker = (onMessage: string) =>
  new Worker(
    `const { parentPort } = require('node:worker_threads');
     parentPort.on('message', () => { ${onMessage} });
     parentPort.postMessage({ ready: true });`,
    { eval: true },
  );

describe('a worker that dies', () => {
  it('rejects the calls pending with an error saying the embedded database failed', async () => {
    const db = await connectPgliteWorker(fakeWorker("throw new Error('out of memory')"), 'memory');
    await expect(db.query('SELECT 1')).rejects.toThrow('The embedded database failed: out of memory');
    await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await db.close();
  });

  it('rejects the calls pending and later ones when the thread exits', async () => {
    const db = await connectPgliteWorker(fakeWorker('process.exit(3)'), 'memory');
    const pending = [db.query('SELECT 1'), db.transaction(async () => 1)];
    for (const call of pending) await expect(call).rejects.toThrow('worker exit code 3');
    await expect(db.query('SELECT 1')).rejects.toThrow('worker exit code 3');
    await db.close();
  });

  it('fails to open, naming where, when the thread reports the engine did not open', async () => {
    const worker = new Worker(
      `require('node:worker_threads').parentPort.postMessage({ failed: { name: 'Error', message: 'disk full', fields: {} } });`,
      { eval: true },
    );
    await expect(connectPgliteWorker(worker, '/data')).rejects.toThrow('disk full');
  });
});
