import pRetry from 'p-retry';
import { redactSecrets } from '../errors/redact.js';
import type { CallRecord } from './call-record.js';
import { isRetryableDelivery, type RecordDestination } from './destination.js';

/** How a queue batches, bounds and retries. Times in milliseconds. */
export interface RecordQueueOptions {
  /** Records per send; this many waiting are sent at once, without waiting for the interval. @default 100 */
  batchSize?: number;
  /** Records waiting are sent at least this often. @default 1000 */
  flushIntervalMs?: number;
  /** Records kept while the destination is slow or down; beyond it new records are dropped and counted. @default 10000 */
  maxQueueSize?: number;
  /** The longest one send may take; it is then aborted and counts as failed. @default 10000 */
  timeoutMs?: number;
  /** Sends of a batch after its first fails (then it is given up and counted as failed). @default 3 */
  maxRetries?: number;
  /** The wait before the first retry; it doubles (randomized up to 2x) each retry. @default 500 */
  retryMinMs?: number;
  /** The longest wait between retries. @default 10000 */
  retryMaxMs?: number;
  /** Told when records are dropped or a batch is given up (once per outage) and when sends work again. */
  onProblem?: (message: string) => void;
}

/** What one destination's queue has done since it was made. Counts never go down. */
export interface DeliveryStats {
  /** The destination's `type`. */
  destination: string;
  /** Records the destination accepted. */
  delivered: number;
  /** Records never sent: the queue was full, or `close()` ran out of time. */
  dropped: number;
  /** Records of batches given up after their retries (or refused for good by the destination). */
  failed: number;
  /** Sends repeated after a failure. */
  retries: number;
  /** Records waiting or being sent. */
  pending: number;
}

/**
 * Delivers records to one destination off the caller's path: `add` only queues (constant time, never
 * waits); batches go out by size or every `flushIntervalMs`, one send at a time, each bounded by
 * `timeoutMs` and retried with exponential backoff (p-retry). A full queue drops new records and counts
 * them, so a destination that hangs costs bounded memory and no caller time. Timers never keep the
 * process alive; `close()` sends what is left within its deadline.
 */
export class RecordQueue {
  readonly #destination: RecordDestination;
  readonly #batchSize: number;
  readonly #flushIntervalMs: number;
  readonly #maxQueueSize: number;
  readonly #timeoutMs: number;
  readonly #retry: { retries: number; minTimeout: number; maxTimeout: number };
  readonly #onProblem: (message: string) => void;
  /** Aborted when `close()` runs out of time: stops the send under way and any retry wait. */
  readonly #stop = new AbortController();
  #queue: CallRecord[] = [];
  #inFlight = 0;
  #sending: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closing = false;
  #troubled = false;
  readonly #stats = { delivered: 0, dropped: 0, failed: 0, retries: 0 };

  constructor(destination: RecordDestination, options: RecordQueueOptions = {}) {
    this.#destination = destination;
    this.#batchSize = whole(options.batchSize, 100, 'batchSize');
    this.#flushIntervalMs = positive(options.flushIntervalMs, 1000, 'flushIntervalMs');
    this.#maxQueueSize = whole(options.maxQueueSize, 10_000, 'maxQueueSize');
    this.#timeoutMs = positive(options.timeoutMs, 10_000, 'timeoutMs');
    this.#retry = {
      retries: Math.max(0, Math.floor(options.maxRetries ?? 3)),
      minTimeout: options.retryMinMs ?? 500,
      maxTimeout: options.retryMaxMs ?? 10_000,
    };
    const onProblem = options.onProblem;
    this.#onProblem = (message) => {
      try {
        onProblem?.(message);
      } catch {
        // a logging hook that throws must not stop delivery
      }
    };
  }

  get destination(): RecordDestination {
    return this.#destination;
  }

  /** Queues one record. Synchronous and constant-time; a full (or closed) queue drops it and counts it. */
  add(record: CallRecord): void {
    if (this.#closing || this.#queue.length + this.#inFlight >= this.#maxQueueSize) {
      this.#stats.dropped++;
      this.#trouble(
        this.#closing
          ? 'a record came after close()'
          : `${this.#maxQueueSize} records are waiting (max_queue_size); dropping new ones`,
      );
      return;
    }
    this.#queue.push(record);
    if (this.#sending) return; // the running loop takes it
    if (this.#queue.length >= this.#batchSize) this.#kick();
    else this.#timer ??= unrefd(setTimeout(() => this.#kick(), this.#flushIntervalMs));
  }

  stats(): DeliveryStats {
    return {
      destination: this.#destination.type,
      ...this.#stats,
      pending: this.#queue.length + this.#inFlight,
    };
  }

  /**
   * Stops taking records and sends what is left (retrying as usual) until done or `deadlineMs` has
   * passed; then aborts the send under way, counts what is left as dropped and closes the destination.
   * @returns how many records were not delivered in the end (dropped now, or given up as failed).
   */
  async close(options: { deadlineMs?: number } = {}): Promise<{ undelivered: number }> {
    if (this.#closing) return { undelivered: 0 };
    this.#closing = true;
    const before = this.#stats.failed + this.#stats.dropped;
    const deadline = setTimeout(() => this.#stop.abort(), options.deadlineMs ?? 5000);
    try {
      // a loop started before close() may stop after one batch: start another until nothing is left
      while (!this.#stop.signal.aborted) {
        await this.#sending;
        if (this.#queue.length === 0) break;
        this.#kick();
      }
    } finally {
      clearTimeout(deadline);
      this.#stop.abort();
    }
    const left = this.#queue.length;
    this.#queue = [];
    this.#stats.dropped += left;
    await this.#destination.close?.().catch(() => undefined);
    const undelivered = this.#stats.failed + this.#stats.dropped - before;
    if (undelivered > 0)
      this.#onProblem(
        `call records: ${undelivered} records for ${this.#destination.type} were not delivered`,
      );
    return { undelivered };
  }

  #kick(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#sending || this.#queue.length === 0) return;
    this.#sending = this.#drain().finally(() => {
      this.#sending = undefined;
      if (this.#queue.length === 0 || this.#closing) return;
      if (this.#queue.length >= this.#batchSize) this.#kick();
      else this.#timer ??= unrefd(setTimeout(() => this.#kick(), this.#flushIntervalMs));
    });
  }

  /** Sends full batches (every batch when closing) until fewer than a batch wait. */
  async #drain(): Promise<void> {
    for (let first = true; this.#queue.length > 0 && !this.#stop.signal.aborted; first = false) {
      if (!first && !this.#closing && this.#queue.length < this.#batchSize) return;
      const batch = this.#queue.splice(0, this.#batchSize);
      this.#inFlight = batch.length;
      try {
        await this.#deliver(batch);
      } finally {
        this.#inFlight = 0;
      }
    }
  }

  async #deliver(batch: CallRecord[]): Promise<void> {
    try {
      await pRetry(
        (attempt) => {
          if (attempt > 1) this.#stats.retries++;
          return this.#sendOnce(batch);
        },
        {
          ...this.#retry,
          randomize: true,
          unref: true,
          signal: this.#stop.signal,
          shouldRetry: ({ error }) => isRetryableDelivery(error),
        },
      );
      this.#stats.delivered += batch.length;
      if (this.#troubled) {
        this.#troubled = false;
        this.#onProblem(`call records: ${this.#destination.type} takes records again`);
      }
    } catch (error) {
      this.#stats.failed += batch.length;
      this.#trouble(`a batch of ${batch.length} was given up (${reasonOf(error)})`);
    }
  }

  /** One send, bounded by the timeout (and by close): a destination that ignores its signal is left behind. */
  #sendOnce(batch: readonly CallRecord[]): Promise<void> {
    // a controller per send rather than AbortSignal.any over the long-lived stop signal, which some
    // Node versions keep alive per composite signal
    const controller = new AbortController();
    const stop = this.#stop.signal;
    let fail: (reason: unknown) => void = () => undefined;
    const failed = new Promise<never>((_, reject) => {
      fail = reject;
    });
    const cut = (reason: unknown) => {
      controller.abort(reason);
      fail(reason);
    };
    const onStop = () => cut(stop.reason);
    const timer = setTimeout(
      () => cut(new DOMException('the send timed out', 'TimeoutError')),
      this.#timeoutMs,
    );
    timer.unref();
    if (stop.aborted) onStop();
    else stop.addEventListener('abort', onStop, { once: true });
    // a send that throws before returning its promise fails like one that rejects
    const sent = new Promise<void>((resolve) => resolve(this.#destination.send(batch, controller.signal)));
    return Promise.race([sent, failed]).finally(() => {
      clearTimeout(timer);
      stop.removeEventListener('abort', onStop);
    });
  }

  /** Reports the first problem of an outage; later ones are counted in the stats only. */
  #trouble(what: string): void {
    if (this.#troubled) return;
    this.#troubled = true;
    this.#onProblem(`call records: ${this.#destination.type}: ${what}; see the stats for counts`);
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return 'timeout';
  const message = error instanceof Error ? error.message : String(error);
  return redactSecrets(message);
}

function unrefd(timer: NodeJS.Timeout): NodeJS.Timeout {
  timer.unref();
  return timer;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new RangeError(`RecordQueue: ${name} must be a positive number, got ${value}`);
  return value;
}

function whole(value: number | undefined, fallback: number, name: string): number {
  return Math.max(1, Math.floor(positive(value, fallback, name)));
}
