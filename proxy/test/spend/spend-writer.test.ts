import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { findKeyByHash, insertKey } from '../../src/db/keys-repo.js';
import type { SpendLogRow } from '../../src/db/spend-repo.js';
import { SpendWriter, type SpendWriterOptions } from '../../src/spend/spend-writer.js';
import { newKeyHash, spendRow, uid } from '../db/spend-rows.js';
import { closeTestDatabases, engines, openMigrated, openPostgresVia, POSTGRES_URL } from '../db-engines.js';
import { type CutProxy, startCutProxy } from '../tcp-cut-proxy.js';

afterAll(closeTestDatabases);

const writers: SpendWriter[] = [];
afterEach(async () => {
  await Promise.all(writers.splice(0).map((w) => w.close({ deadlineMs: 500 })));
});

function writer(db: Database, options: SpendWriterOptions = {}): SpendWriter {
  const w = new SpendWriter(db, options);
  writers.push(w);
  return w;
}

/** The database, with a count of the transactions (one per batch written) sent through it. */
function counting(db: Database) {
  let transactions = 0;
  const wrapped: Database = {
    engine: db.engine,
    query: (sql, params) => db.query(sql, params),
    // the embedded engine's batches go by COPY: the wrapper keeps that path under test
    ...(db.copyIn ? { copyIn: (target: string, text: string) => db.copyIn!(target, text) } : {}),
    transaction: (fn) => {
      transactions++;
      return db.transaction(fn);
    },
    close: () => db.close(),
  };
  return { db: wrapped, transactions: () => transactions };
}

/** A stored key and `count` rows charged to it, costing 1, 2, 3... */
async function keyAndRows(db: Database, count: number) {
  const key_hash = newKeyHash();
  await insertKey(db, { key_hash });
  const rows: SpendLogRow[] = Array.from({ length: count }, (_, i) => spendRow({ key_hash, cost: i + 1 }));
  const total = (count * (count + 1)) / 2;
  return { key_hash, rows, total };
}

async function storedFor(db: Database, key_hash: string) {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*) AS n FROM svc_spend_logs WHERE key_hash = $1',
    [key_hash],
  );
  return { rows: rows[0]?.n, spend: (await findKeyByHash(db, key_hash))?.spend };
}

describe.each(engines)('SpendWriter ($name)', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await openMigrated(engine);
  });

  it('queues a row without touching the database', async () => {
    const { db: counted, transactions } = counting(db);
    const w = writer(counted, { flushIntervalMs: 60_000 });

    expect(w.add(spendRow())).toBeUndefined();
    expect(w.stats()).toMatchObject({ pending: 1, written: 0 });
    expect(transactions()).toBe(0);
  });

  it('writes pending rows every flushIntervalMs', async () => {
    const { key_hash, rows, total } = await keyAndRows(db, 3);
    const w = writer(db, { flushIntervalMs: 20 });

    for (const row of rows) w.add(row);

    await expect.poll(() => storedFor(db, key_hash)).toEqual({ rows: 3, spend: total });
    expect(w.stats()).toMatchObject({ pending: 0, written: 3, batches: 1, failedFlushes: 0 });
  });

  it('writes as soon as batchSize rows are pending, without waiting for the interval', async () => {
    const { key_hash, rows } = await keyAndRows(db, 5);
    const w = writer(db, { flushIntervalMs: 60_000, batchSize: 5 });

    for (const row of rows) w.add(row);

    await expect.poll(() => storedFor(db, key_hash).then((s) => s.rows)).toBe(5);
  });

  it('writes 1000 rows a batch unless told otherwise: 999 pending wait for the interval', async () => {
    const { db: counted, transactions } = counting(db);
    const { key_hash, rows } = await keyAndRows(db, 1000);
    const w = writer(counted, { flushIntervalMs: 60_000 });

    for (const row of rows.slice(0, 999)) w.add(row);
    await new Promise((r) => setTimeout(r, 50));
    expect(transactions()).toBe(0);

    w.add(rows[999]!);
    await expect.poll(() => storedFor(db, key_hash).then((s) => s.rows), { timeout: 5000 }).toBe(1000);
    expect(transactions()).toBe(1);
  });

  it('leaves rows that came in during a write for the interval unless they fill a batch', async () => {
    const { db: counted, transactions } = counting(db);
    const { rows } = await keyAndRows(db, 5);
    const w = writer(counted, { flushIntervalMs: 60_000, batchSize: 3 });
    for (const row of rows.slice(0, 3)) w.add(row); // a full batch: written at once
    for (const row of rows.slice(3)) w.add(row); // two more while it is written
    await expect.poll(() => w.stats().written).toBe(3);
    await new Promise((r) => setTimeout(r, 50));
    expect(transactions()).toBe(1);
    expect(w.stats().pending).toBe(2);
    await w.flush();
    expect(w.stats()).toMatchObject({ written: 5, pending: 0 });
  });

  it('writes in batches of batchSize, one transaction each', async () => {
    const { db: counted, transactions } = counting(db);
    const { key_hash, rows, total } = await keyAndRows(db, 250);
    const w = writer(counted, { flushIntervalMs: 60_000, batchSize: 100 });

    for (const row of rows) w.add(row);
    await w.flush();

    expect(transactions()).toBe(3);
    expect(w.stats()).toMatchObject({ pending: 0, written: 250, batches: 3 });
    expect(await storedFor(db, key_hash)).toEqual({ rows: 250, spend: total });
  });

  it('close() writes the rows still pending', async () => {
    const { key_hash, rows, total } = await keyAndRows(db, 7);
    const w = writer(db, { flushIntervalMs: 60_000 });
    for (const row of rows) w.add(row);

    expect(await w.close()).toEqual({ unwritten: 0 });
    expect(await storedFor(db, key_hash)).toEqual({ rows: 7, spend: total });
  });

  it('drops and counts rows added after close(), reporting it', async () => {
    const errors: string[] = [];
    const w = writer(db, { onError: (m) => errors.push(m) });
    await w.close();

    w.add(spendRow());
    w.add(spendRow());

    expect(w.stats()).toMatchObject({ pending: 0, dropped: 2 });
    expect(errors).toEqual([expect.stringMatching(/dropped because the writer is closed/)]);
  });

  it('gives a row without a call id one of its own, so it is not taken for another', async () => {
    const { key_hash } = await keyAndRows(db, 0);
    const w = writer(db, { flushIntervalMs: 60_000 });

    w.add(spendRow({ key_hash, call_id: '', cost: 1 }));
    w.add(spendRow({ key_hash, call_id: '', cost: 2 }));
    await w.flush();

    expect(await storedFor(db, key_hash)).toEqual({ rows: 2, spend: 3 });
  });

  /** Rows whose call id starts with `refused-` fail with a data exception, `too-large-` with 54000. */
  async function refuseMarkedRows(): Promise<void> {
    await db.query(`CREATE OR REPLACE FUNCTION svc_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.call_id LIKE 'refused-%' THEN RAISE EXCEPTION 'refused' USING ERRCODE = '22023'; END IF;
  IF NEW.call_id LIKE 'too-large-%' THEN RAISE EXCEPTION 'too large' USING ERRCODE = '54000'; END IF;
  RETURN NEW;
END $$`);
    await db.query(
      'CREATE OR REPLACE TRIGGER svc_test_refuse BEFORE INSERT ON svc_spend_logs FOR EACH ROW EXECUTE FUNCTION svc_test_refuse()',
    );
  }

  it.each([
    ['a data exception', 'refused'],
    ['a program limit exceeded (54000)', 'too-large'],
  ])('sets aside a row the database refuses with %s and writes the others', async (_, prefix) => {
    await refuseMarkedRows();
    const { key_hash, rows } = await keyAndRows(db, 4);
    rows[1] = { ...rows[1]!, call_id: uid(prefix) };
    const errors: string[] = [];
    const w = writer(db, { flushIntervalMs: 60_000, onError: (m) => errors.push(m) });

    for (const row of rows) w.add(row);
    await w.flush();

    expect(await storedFor(db, key_hash)).toEqual({ rows: 3, spend: 1 + 3 + 4 });
    expect(w.stats()).toMatchObject({ pending: 0, written: 3, rejected: 1 });
    expect(errors).toContainEqual(expect.stringMatching(/refused 1 rows/));
  });

  it('finds a refused row by halving its batch: 13 writes for a batch of 64, not one per row', async () => {
    await refuseMarkedRows();
    const { db: counted, transactions } = counting(db);
    const { key_hash, rows, total } = await keyAndRows(db, 64);
    rows[37] = { ...rows[37]!, call_id: uid('refused') };
    const w = writer(counted, { flushIntervalMs: 60_000, batchSize: 64, onError: () => {} });

    for (const row of rows) w.add(row);
    await w.flush();

    // the whole batch, then at each of 6 halvings the half that is written and the half that fails
    expect(transactions()).toBe(13);
    expect(await storedFor(db, key_hash)).toEqual({ rows: 63, spend: total - 38 });
    expect(w.stats()).toMatchObject({ pending: 0, written: 63, rejected: 1 });
  });
});

describe('SpendWriter when the database drops (PostgreSQL behind a TCP proxy)', () => {
  let proxy: CutProxy;
  let db: Database;
  const errors: string[] = [];
  const fast: SpendWriterOptions = {
    flushIntervalMs: 20,
    retryBaseMs: 10,
    maxRetryDelayMs: 50,
    onError: (m) => errors.push(m),
  };

  beforeAll(async () => {
    const target = new URL(POSTGRES_URL);
    proxy = await startCutProxy({ host: target.hostname, port: Number(target.port || 5432) });
    // trust auth ignores the password: it is there to show it never reaches a message
    const url = `postgres://${target.username}:hunter22@127.0.0.1:${proxy.port}${target.pathname}`;
    db = await openPostgresVia(url, { connectTimeoutMs: 1_000 });
  });
  afterEach(() => {
    proxy.restore();
    errors.length = 0;
  });
  afterAll(() => proxy.close());

  it('keeps the rows while the database is unreachable and writes each once when it is back', async () => {
    const { key_hash, rows, total } = await keyAndRows(db, 5);
    // a full batch is written at once; the interval is far off, so only the retry timer writes it later
    const w = writer(db, { ...fast, flushIntervalMs: 60_000, batchSize: 5 });

    proxy.cut();
    for (const row of rows) w.add(row);
    await expect.poll(() => w.stats().failedFlushes).toBeGreaterThanOrEqual(2);
    expect(w.stats()).toMatchObject({ pending: 5, written: 0 });

    proxy.restore();
    await expect.poll(() => w.stats().pending).toBe(0);

    expect(await storedFor(db, key_hash)).toEqual({ rows: 5, spend: total });
    expect(w.stats()).toMatchObject({ written: 5 });
    expect(w.stats().lastError).toBeUndefined();
    expect(errors.some((m) => /retrying in \d+ ms/.test(m))).toBe(true);
    expect(errors.join('\n')).not.toContain('hunter22');
  });

  it('stores and charges a batch once when the connection drops after its COMMIT was done', async () => {
    const { key_hash, rows, total } = await keyAndRows(db, 4);
    const w = writer(db, { ...fast, flushIntervalMs: 60_000 });
    const dropped = proxy.dropAnswerTo('COMMIT');

    for (const row of rows) w.add(row);
    await expect(w.flush()).rejects.toThrow();
    await dropped;
    await w.flush();

    expect(await storedFor(db, key_hash)).toEqual({ rows: 4, spend: total });
    expect(w.stats()).toMatchObject({ pending: 0, written: 4, failedFlushes: 1 });
  });

  it('writes a batch again whole when the connection drops before its COMMIT', async () => {
    const { key_hash, rows, total } = await keyAndRows(db, 4);
    // no retry of its own before the check in between: on a slow machine a 10 ms retry could write the
    // batch before the check read the table; the explicit flush below writes it (flush skips the delay)
    const w = writer(db, { ...fast, flushIntervalMs: 60_000, retryBaseMs: 60_000, maxRetryDelayMs: 60_000 });
    const dropped = proxy.dropAnswerTo('INSERT INTO svc_spend_logs');

    for (const row of rows) w.add(row);
    await expect(w.flush()).rejects.toThrow();
    await dropped;
    expect(await storedFor(db, key_hash)).toEqual({ rows: 0, spend: 0 });
    await w.flush();

    expect(await storedFor(db, key_hash)).toEqual({ rows: 4, spend: total });
  });

  it('close() gives up at its deadline and reports how many rows were left', async () => {
    const w = writer(db, fast);
    proxy.cut();
    for (let i = 0; i < 3; i++) w.add(spendRow());

    const started = Date.now();
    expect(await w.close({ deadlineMs: 300 })).toEqual({ unwritten: 3 });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(errors).toContainEqual(expect.stringMatching(/3 rows were not written before the close deadline/));
  });

  it('drops rows beyond maxPending while the database is unreachable, counted and reported once', async () => {
    const w = writer(db, { ...fast, flushIntervalMs: 60_000, maxPending: 5 });
    proxy.cut();

    for (let i = 0; i < 8; i++) w.add(spendRow());

    expect(w.stats()).toMatchObject({ pending: 5, dropped: 3 });
    expect(errors.filter((m) => /dropped/.test(m))).toHaveLength(1);
  });
});
