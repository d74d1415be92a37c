/**
 * The thread PGlite runs in (started by pglite-worker-database.ts): its WebAssembly engine takes ~85 µs
 * per spend row, which on the proxy's event loop would stall every request in flight. It opens the
 * engine from `workerData` and answers WorkerRequests in the order they arrive; PGlite itself queues
 * statements behind an open transaction.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Database, Queryable } from './database.js';
import { openPglite, type PgliteOptions } from './pglite-database.js';
import { serializeError, type WorkerReply, type WorkerRequest } from './pglite-worker-protocol.js';

/** An open transaction: its session, and how to end it once the proxy's `fn` has settled. */
interface OpenTransaction {
  tx: Queryable;
  end(commit: boolean, replyId: number): void;
}

// thrown into PGlite's transaction callback to have it roll back; never reported as an error
const ROLLBACK = Symbol('rollback');

const port = parentPort;
if (port === null) throw new Error('pglite-worker.ts runs as a worker thread only');
const post = (reply: WorkerReply) => port.postMessage(reply);
const fail = (id: number, error: unknown) => post({ id, error: serializeError(error) });

const transactions = new Map<number, OpenTransaction>();

async function query(db: Database, request: Extract<WorkerRequest, { op: 'query' }>): Promise<void> {
  const { id, sql, params, tx } = request;
  try {
    const session = tx === undefined ? db : transactions.get(tx)?.tx;
    if (session === undefined) throw new Error('Transaction is closed');
    const { rows } = await session.query(sql, params);
    post({ id, rows });
  } catch (error) {
    fail(id, error);
  }
}

async function copy(db: Database, request: Extract<WorkerRequest, { op: 'copy' }>): Promise<void> {
  const { id, target, text, tx } = request;
  try {
    const session = tx === undefined ? db : transactions.get(tx)?.tx;
    if (session === undefined) throw new Error('Transaction is closed');
    await session.copyIn!(target, text);
    post({ id, done: true });
  } catch (error) {
    fail(id, error);
  }
}

async function begin(db: Database, id: number): Promise<void> {
  let replyTo = id;
  try {
    await db.transaction(
      (tx) =>
        new Promise<void>((resolve, reject) => {
          transactions.set(id, {
            tx,
            end: (commit, endId) => {
              replyTo = endId;
              if (commit) resolve();
              else reject(ROLLBACK);
            },
          });
          post({ id, done: true });
        }),
    );
    post({ id: replyTo, done: true });
  } catch (error) {
    if (error === ROLLBACK) post({ id: replyTo, done: true });
    else fail(replyTo, error);
  } finally {
    transactions.delete(id);
  }
}

function end(request: Extract<WorkerRequest, { op: 'end' }>): void {
  const open = transactions.get(request.tx);
  if (open === undefined) fail(request.id, new Error('Transaction is closed'));
  else open.end(request.commit, request.id);
}

async function close(db: Database, id: number): Promise<void> {
  try {
    await db.close();
    post({ id, done: true });
  } catch (error) {
    fail(id, error);
  }
}

function serve(db: Database, request: WorkerRequest): void {
  switch (request.op) {
    case 'query':
      void query(db, request);
      return;
    case 'copy':
      void copy(db, request);
      return;
    case 'begin':
      void begin(db, request.id);
      return;
    case 'end':
      end(request);
      return;
    case 'close':
      void close(db, request.id);
      return;
  }
}

try {
  const db = await openPglite(workerData as PgliteOptions);
  port.on('message', (request: WorkerRequest) => serve(db, request));
  post({ ready: true });
} catch (error) {
  post({ failed: serializeError(error) });
}
