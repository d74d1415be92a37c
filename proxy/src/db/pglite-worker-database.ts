import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Database, Queryable } from './database.js';
import { DatabaseUnavailableError } from './db-errors.js';
import { holdsDatabase, type PgliteOptions } from './pglite-database.js';
import { deserializeError, type WorkerReply, type WorkerRequest } from './pglite-worker-protocol.js';
import { quoteSchemaName } from './schema-name.js';

/** A request's fields but its id, which the database assigns. */
type Outgoing = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

interface Pending {
  resolve(reply: WorkerReply): void;
  reject(error: Error): void;
}

/**
 * Starts the worker thread: the compiled `pglite-worker.js` next to this module in dist/. From the
 * TypeScript sources (vitest, tsx) the thread loads `pglite-worker.ts` through tsx's API: neither
 * vitest's module runner nor a parent's loader hooks reach a worker thread, and Node 20 ignores
 * `--import tsx` in a worker's `execArgv`.
 */
function startWorker(workerData: PgliteOptions): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./pglite-worker.js', import.meta.url), { workerData });
  const entry = new URL('./pglite-worker.ts', import.meta.url).href;
  // resolved here, where tsx is a dev dependency: the thread's eval'd code resolves from the cwd
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}));`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/**
 * Runs pglite-create.js (pglite-create.ts through tsx from the TypeScript sources) on `dir` in a child
 * process and waits for it to end: undefined when it created a database there, else why not.
 */
async function runCreator(dir: string): Promise<string | undefined> {
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(`./pglite-create.${fromSources ? 'ts' : 'js'}`, import.meta.url));
  const loader = fromSources ? ['--import', import.meta.resolve('tsx')] : [];
  const child = spawn(process.execPath, [...loader, entry, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  let ended: [number | null, NodeJS.Signals | null];
  try {
    // 'close', not 'exit': stderr is read to its end
    ended = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  } catch (error) {
    return `cannot start the process that creates it (${(error as Error).message})`;
  }
  const [code, signal] = ended;
  if (code === 0) return undefined;
  // openPglite's own message, after anything Node printed before it (a warning)
  const prefix = `Cannot open the embedded database at ${dir}: `;
  const at = stderr.indexOf(prefix);
  if (at !== -1) return stderr.slice(at + prefix.length).trim();
  const printed = stderr.trim();
  return `the process creating it ended with ${signal ?? `exit code ${code}`}${printed ? ` (${printed})` : ''}`;
}

/** Where a database is made before it is moved in: this prefix, then the creating process's pid. */
const ASIDE = '.svc-router-creating-';

/** Removes what creations by processes no longer running left aside in `dataDir` (killed mid-way). */
async function removeAbandoned(dataDir: string): Promise<void> {
  const names = await readdir(dataDir).catch(() => []);
  for (const name of names) {
    if (!name.startsWith(ASIDE)) continue;
    const pid = Number(name.slice(ASIDE.length));
    if (Number.isInteger(pid) && pid !== process.pid && isRunning(pid)) continue;
    await rm(join(dataDir, name), { recursive: true, force: true });
  }
}

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: running, as another user
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Creates an embedded database in `dataDir` (runCreator), made aside in a directory of its own inside
 * `dataDir` (the same file system, a mount point too) and moved in once whole, `PG_VERSION` last:
 * `dataDir` holds a database (`holdsDatabase`) only once all of it is there. A creation that fails,
 * the process killed or the disk full, leaves nothing behind for the next start to trip on, and never
 * touches a database another process (wrongly started on the same directory) made meanwhile.
 * @throws DatabaseUnavailableError naming the directory when it could not.
 */
async function createDatabase(dataDir: string): Promise<void> {
  const where = `Cannot open the embedded database at ${dataDir}`;
  await removeAbandoned(dataDir);
  const aside = join(dataDir, `${ASIDE}${process.pid}`);
  try {
    const failure = await runCreator(aside);
    if (failure !== undefined) throw new DatabaseUnavailableError(`${where}: ${failure}`);
    if (holdsDatabase(dataDir)) return;
    const names = (await readdir(aside)).sort(
      (a, b) => Number(a === 'PG_VERSION') - Number(b === 'PG_VERSION'),
    );
    // files of a database's names that are not one (another program's, or a copy cut short) stay
    const taken = (await readdir(dataDir)).filter((name) => names.includes(name));
    if (taken.length > 0)
      throw new DatabaseUnavailableError(
        `${where}: it holds files but no database (${taken.slice(0, 3).join(', ')}${taken.length > 3 ? ', ...' : ''}): move them away, or set another data_dir`,
      );
    for (const name of names) await rename(join(aside, name), join(dataDir, name));
  } finally {
    // what cannot be removed now (a data_dir that cannot be read) a later start removes as abandoned
    await rm(aside, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * A Database on PGlite running in a worker thread, so that its engine never runs on the event loop.
 * Each call is a message with an id; a transaction is a session in the worker (BEGIN there, `fn` here,
 * its statements sent bound to it, then COMMIT or ROLLBACK). PGlite has one session: while a
 * transaction is open, other statements wait for it, in the order they were sent.
 */
class PgliteWorkerDatabase implements Database {
  readonly engine = 'pglite' as const;
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  /** Calls under way and transactions open: while any, the worker keeps the process alive. */
  #busy = 0;
  /** Why no more calls are served (closed, or the worker died); undefined while open. */
  #stopped: Error | undefined;
  #closing: Promise<void> | undefined;

  constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (reply: WorkerReply) => this.#receive(reply));
    worker.on('error', (error) =>
      this.#stop(new DatabaseUnavailableError(`The embedded database failed: ${error.message}`)),
    );
    worker.on('exit', (code) =>
      this.#stop(new DatabaseUnavailableError(`The embedded database stopped (worker exit code ${code})`)),
    );
    worker.unref();
  }

  query = <R extends object>(sql: string, params?: readonly unknown[]): Promise<{ rows: R[] }> =>
    this.#query<R>(sql, params, undefined);

  copyIn = (target: string, text: string): Promise<void> => this.#copyIn(target, text, undefined);

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    this.#hold();
    try {
      const tx = await this.#begin();
      let open = true;
      const session: Queryable = {
        query: async <R extends object>(sql: string, params?: readonly unknown[]) => {
          if (!open) throw new Error('Transaction is closed');
          return this.#query<R>(sql, params, tx);
        },
        copyIn: async (target: string, text: string) => {
          if (!open) throw new Error('Transaction is closed');
          return this.#copyIn(target, text, tx);
        },
      };
      let result: T;
      try {
        result = await fn(session);
      } catch (error) {
        open = false;
        // the rollback's own failure (a dead worker) must not hide why `fn` failed
        await this.#send({ op: 'end', tx, commit: false }).catch(() => undefined);
        throw error;
      }
      open = false;
      await this.#send({ op: 'end', tx, commit: true });
      return result;
    } finally {
      this.#release();
    }
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  async #shutDown(): Promise<void> {
    try {
      if (this.#stopped === undefined) await this.#send({ op: 'close' });
    } finally {
      this.#stop(new DatabaseUnavailableError('The embedded database is closed'));
      await this.#worker.terminate();
    }
  }

  async #query<R extends object>(
    sql: string,
    params: readonly unknown[] | undefined,
    tx: number | undefined,
  ): Promise<{ rows: R[] }> {
    const reply = await this.#send({ op: 'query', sql, params, tx });
    return { rows: ('rows' in reply ? reply.rows : []) as R[] };
  }

  async #copyIn(target: string, text: string, tx: number | undefined): Promise<void> {
    await this.#send({ op: 'copy', target, text, tx });
  }

  /** Opens a transaction in the worker; its id (the begin request's) binds statements to it. */
  async #begin(): Promise<number> {
    const id = this.#nextId++;
    await this.#send({ op: 'begin' }, id);
    return id;
  }

  #send(request: Outgoing, id = this.#nextId++): Promise<WorkerReply> {
    if (this.#stopped !== undefined) return Promise.reject(this.#stopped);
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#hold();
      try {
        this.#worker.postMessage({ ...request, id });
      } catch (error) {
        // parameters that cannot be cloned (a function...) fail this call alone
        this.#settle(id)?.reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  #receive(reply: WorkerReply): void {
    if (!('id' in reply)) return;
    const pending = this.#settle(reply.id);
    if (pending === undefined) return;
    if ('error' in reply) pending.reject(deserializeError(reply.error));
    else pending.resolve(reply);
  }

  #settle(id: number): Pending | undefined {
    const pending = this.#pending.get(id);
    if (pending === undefined) return undefined;
    this.#pending.delete(id);
    this.#release();
    return pending;
  }

  #stop(reason: Error): void {
    this.#stopped ??= reason;
    for (const id of [...this.#pending.keys()]) this.#settle(id)?.reject(this.#stopped);
  }

  #hold(): void {
    if (this.#busy++ === 0) this.#worker.ref();
  }

  #release(): void {
    if (--this.#busy === 0) this.#worker.unref();
  }
}

/** Waits for the worker's word that the engine opened; rejects with why it did not. */
function whenReady(worker: Worker, where: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const unavailable = (reason: string) =>
      new DatabaseUnavailableError(`Cannot open the embedded database at ${where}: ${reason}`);
    const onMessage = (reply: WorkerReply) => {
      if ('ready' in reply) done(resolve);
      else if ('failed' in reply) done(() => reject(new DatabaseUnavailableError(reply.failed.message)));
    };
    const onError = (error: Error) => done(() => reject(unavailable(error.message)));
    const onExit = (code: number) => done(() => reject(unavailable(`the worker exited with code ${code}`)));
    const done = (settle: () => void) => {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      settle();
    };
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

/**
 * A Database served by `worker`, a thread speaking pglite-worker-protocol.ts, once it reports that
 * its engine opened. A worker that dies rejects the calls pending and every later one.
 * @throws DatabaseUnavailableError naming `where` when the worker reports a failure or stops first;
 * the worker is then terminated.
 */
export async function connectPgliteWorker(worker: Worker, where: string): Promise<Database> {
  try {
    await whenReady(worker, where);
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return new PgliteWorkerDatabase(worker);
}

/**
 * Opens (or creates) an embedded PGlite database in a worker thread. Only one process may open a
 * given `dataDir`. `close()` closes the engine and ends the thread; an idle database never keeps the
 * process alive.
 * @throws ConfigError when the schema name is invalid; DatabaseUnavailableError naming the directory
 * when it cannot be created or holds no usable database, or the worker cannot start.
 */
export async function openPgliteWorker(options: PgliteOptions): Promise<Database> {
  if (options.schema !== undefined) quoteSchemaName(options.schema);
  const { dataDir } = options;
  if (dataDir !== undefined && options.template === undefined && !holdsDatabase(dataDir)) {
    // initdb in a process of its own: in the serving thread its WebAssembly memory (about 400 MB)
    // stayed resident until that thread's next full GC, which its little JavaScript allocation put
    // seconds to minutes away
    await createDatabase(dataDir);
  }
  const worker = startWorker({
    dataDir: options.dataDir,
    schema: options.schema,
    template: options.template,
  });
  return connectPgliteWorker(worker, options.dataDir ?? 'memory');
}
