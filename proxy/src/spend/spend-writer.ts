import { redactSecrets } from '@svc/router';
import type { Database } from '../db/database.js';
import { type SpendLogRow, writeSpendBatch } from '../db/spend-repo.js';
import { newCallId } from '../http/call-id.js';
import { writeSettingAsideRefused } from './refused-rows.js';

/** Rows a SpendWriter writes in one batch unless told otherwise (`batchSize`). */
export const SPEND_BATCH_ROWS = 1000;

/** How a SpendWriter batches and retries. Times in milliseconds. */
export interface SpendWriterOptions {
  /** Pending rows are written at least this often. @default 500 */
  flushIntervalMs?: number;
  /**
   * Rows per batch; this many pending are written at once, without waiting for the interval. A batch
   * has a cost of its own whatever its size (a transaction, its statements planned, a commit): about a
   * millisecond on the embedded database; on Postgres, under load, batches of 1000 cost about a third
   * less per row than batches of 200, in the process and in the server (bench/spend.ts). @default 1000
   */
  batchSize?: number;
  /** The wait after a first failed write; it doubles with each failure in a row. @default 250 */
  retryBaseMs?: number;
  /** The longest wait between retries. @default 10000 */
  maxRetryDelayMs?: number;
  /**
   * Rows held at most while the database is unreachable; beyond it new rows are dropped, counted in
   * `stats().dropped` and reported. A backstop for memory during a long outage. @default 100000
   */
  maxPending?: number;
  /** Told why a write failed, or that rows were dropped or left unwritten: a message, never a secret. */
  onError?: (message: string) => void;
}

/** What a SpendWriter has done so far. */
export interface SpendWriterStats {
  /** Rows added and not yet written (those being written included). */
  pending: number;
  /** Rows written (stored, or found already stored after an ambiguous failure). */
  written: number;
  /** Batches written. */
  batches: number;
  /** Writes that failed; their rows were kept and retried. */
  failedFlushes: number;
  /** Rows not kept: added after `close()`, or beyond `maxPending`. */
  dropped: number;
  /** Rows the database refused as data (not for being unreachable), set aside so the rest go through. */
  rejected: number;
  /** Why the last write failed, until a write succeeds. */
  lastError?: string;
}

/**
 * Writes spend log rows off the request path: `add` only queues the row; batches are written every
 * `flushIntervalMs` or as soon as `batchSize` rows wait. A failed write keeps its rows and is retried
 * with a growing, capped delay, so a database restart or a network blip loses nothing; a retried
 * batch is never counted twice (rows are idempotent on `call_id`). Call `close()` on shutdown: the
 * interval timer does not keep the process alive, so rows still queued at exit are otherwise lost.
 *
 * @example
 * const spend = new SpendWriter(db, { onError: (m) => log.warn(m) });
 * spend.add({ call_id, key_hash, cost, status: 'success', ... }); // in the request, never awaited
 * const { unwritten } = await spend.close({ deadlineMs: 5_000 }); // on SIGTERM
 */
export class SpendWriter {
  readonly #db: Database;
  readonly #flushIntervalMs: number;
  readonly #batchSize: number;
  readonly #retryBaseMs: number;
  readonly #maxRetryDelayMs: number;
  readonly #maxPending: number;
  readonly #onError: (message: string) => void;

  /** Rows waiting, oldest first; a batch being written is out of it until it succeeds or fails. */
  #queue: SpendLogRow[] = [];
  #inFlight = 0;
  #draining: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #timerDue = 0;
  #failuresInARow = 0;
  #retryAt = 0;
  #closed = false;
  #dropReported = false;
  #stats = { written: 0, batches: 0, failedFlushes: 0, dropped: 0, rejected: 0 };
  #lastError: string | undefined;

  constructor(db: Database, options: SpendWriterOptions = {}) {
    this.#db = db;
    this.#flushIntervalMs = positive(options.flushIntervalMs, 500, 'flushIntervalMs');
    this.#batchSize = Math.floor(positive(options.batchSize, SPEND_BATCH_ROWS, 'batchSize'));
    this.#retryBaseMs = positive(options.retryBaseMs, 250, 'retryBaseMs');
    this.#maxRetryDelayMs = positive(options.maxRetryDelayMs, 10_000, 'maxRetryDelayMs');
    this.#maxPending = Math.floor(positive(options.maxPending, 100_000, 'maxPending'));
    const onError = options.onError;
    this.#onError = (message) => {
      try {
        onError?.(message);
      } catch {
        // a logging hook that throws must not break spend writing
      }
    };
  }

  /** Queues one call's row. Synchronous and constant-time: it never waits for the database. */
  add(row: SpendLogRow): void {
    if (this.#closed || this.#queue.length + this.#inFlight >= this.#maxPending) {
      this.#drop(this.#closed ? 'the writer is closed' : `${this.#maxPending} rows are already pending`);
      return;
    }
    // rows are stored once per call_id: a row without one would be taken for another row without one
    this.#queue.push(row.call_id ? row : { ...row, call_id: newCallId() });
    if (this.#draining) return; // the running write loop takes it
    const now = Date.now();
    const due = this.#queue.length >= this.#batchSize ? now : now + this.#flushIntervalMs;
    this.#schedule(Math.max(due, this.#retryAt));
  }

  /**
   * Writes every pending row now (also during a retry delay), in batches.
   * @throws the database's error when a write fails; its rows stay pending and are retried.
   */
  async flush(): Promise<void> {
    if (this.#draining) await this.#draining.catch(() => undefined);
    if (this.#queue.length > 0) await this.#drain(true);
  }

  /**
   * Stops the timer and writes what is pending, retrying failed writes, until nothing is left or
   * `deadlineMs` has passed. Rows added afterwards are dropped. Rows left are reported to `onError`.
   * @returns how many rows were not written (rows whose write was under way at the deadline count as
   * unwritten, though that write may still succeed).
   */
  async close(options: { deadlineMs?: number } = {}): Promise<{ unwritten: number }> {
    this.#closed = true;
    this.#clearTimer();
    const deadline = Date.now() + (options.deadlineMs ?? 10_000);
    // the first attempt at once (the database may be back), later ones after a short wait
    for (let attempt = 0; this.#pending() > 0 && Date.now() < deadline; attempt++) {
      if (attempt > 0) {
        const untilRetry = Math.max(0, this.#retryAt - Date.now());
        await sleep(Math.min(untilRetry, CLOSE_RETRY_CAP_MS, deadline - Date.now()));
        if (Date.now() >= deadline) break;
      }
      await raceDeadline(
        this.flush().catch(() => undefined),
        deadline,
      );
    }
    const unwritten = this.#pending();
    if (unwritten > 0)
      this.#onError(
        `Spend: ${unwritten} rows were not written before the close deadline${this.#lastError ? ` (last error: ${this.#lastError})` : ''}`,
      );
    return { unwritten };
  }

  /** Counts since the writer was made. */
  stats(): SpendWriterStats {
    return {
      pending: this.#pending(),
      ...this.#stats,
      ...(this.#lastError === undefined ? {} : { lastError: this.#lastError }),
    };
  }

  #pending(): number {
    return this.#queue.length + this.#inFlight;
  }

  #drop(why: string): void {
    this.#stats.dropped++;
    // once per outage, not once per row: a log line per dropped call would flood the log
    if (this.#dropReported) return;
    this.#dropReported = true;
    this.#onError(`Spend: a row was dropped because ${why}; see stats().dropped for the count`);
  }

  /** Arms the timer for `due` (epoch ms) unless it already fires sooner. */
  #schedule(due: number): void {
    if (this.#closed || (this.#timer && this.#timerDue <= due)) return;
    this.#clearTimer();
    this.#timerDue = due;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#drain().catch(() => undefined);
      },
      Math.max(0, due - Date.now()),
    );
    this.#timer.unref();
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Writes the pending rows: all of them (`everything`), or a batch and then only full batches. */
  #drain(everything = false): Promise<void> {
    this.#draining ??= this.#writeAll(everything).finally(() => {
      this.#draining = undefined;
      // after a failure, at the retry time; else rows that came in as the loop ended wait an interval
      if (this.#queue.length > 0)
        this.#schedule(this.#retryAt > 0 ? this.#retryAt : Date.now() + this.#flushIntervalMs);
    });
    return this.#draining;
  }

  async #writeAll(everything: boolean): Promise<void> {
    // Under load rows keep coming while a batch is written. Going on at once with the few that came
    // would write many small batches, and a batch costs about as much as fifty rows on the embedded
    // database: the loop goes on only with a full batch, and the rest waits for the next interval.
    for (
      let first = true;
      this.#queue.length > 0 && (everything || first || this.#queue.length >= this.#batchSize);
      first = false
    ) {
      const batch = this.#queue.splice(0, this.#batchSize);
      this.#inFlight = batch.length;
      const refused = new Set<SpendLogRow>();
      try {
        await writeSettingAsideRefused(batch, (rows) => writeSpendBatch(this.#db, rows), refused);
        this.#succeeded(batch.length - refused.size, refused.size);
      } catch (error) {
        // back at the head, in order: the next attempt writes the same rows first
        this.#queue.unshift(...batch.filter((row) => !refused.has(row)));
        this.#failed(error, refused.size);
        throw error;
      } finally {
        this.#inFlight = 0;
      }
    }
  }

  #succeeded(written: number, refused: number): void {
    this.#stats.written += written;
    this.#stats.batches++;
    this.#countRefused(refused);
    this.#failuresInARow = 0;
    this.#retryAt = 0;
    this.#lastError = undefined;
    this.#dropReported = false;
  }

  #failed(error: unknown, refused: number): void {
    this.#countRefused(refused);
    this.#stats.failedFlushes++;
    this.#failuresInARow++;
    const delay = retryDelay(this.#failuresInARow, this.#retryBaseMs, this.#maxRetryDelayMs);
    this.#retryAt = Date.now() + delay;
    this.#lastError = redactSecrets(error instanceof Error ? error.message : String(error));
    this.#onError(
      `Spend: writing spend rows failed (${this.#queue.length} pending), retrying in ${Math.round(delay)} ms: ${this.#lastError}`,
    );
  }

  #countRefused(refused: number): void {
    if (refused === 0) return;
    this.#stats.rejected += refused;
    this.#onError(`Spend: the database refused ${refused} rows as invalid; they were set aside`);
  }
}

/** The wait before retry number `failures` (1, 2, ...): doubling from `base`, capped, with ±20% jitter. */
export function retryDelay(failures: number, base: number, max: number): number {
  const exponential = base * 2 ** Math.min(failures - 1, 30);
  return Math.min(max, exponential * (0.8 + Math.random() * 0.4));
}

// during close() the deadline matters more than sparing the database: retry at least this often
const CLOSE_RETRY_CAP_MS = 500;

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new RangeError(`SpendWriter: ${name} must be a positive number, got ${value}`);
  return value;
}

// not unref'd: a shutdown waiting in close() must keep the process alive until it is done
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function raceDeadline(work: Promise<void>, deadline: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
  });
  try {
    await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
