import type { CallRecord } from './call-record.js';

/**
 * Where call records go: `webhook`, `file` and `otlp` are built in; implement this for any other place
 * and give the object in the router setting `callbacks`. A destination only sends: batching, the
 * bounded queue, timeouts and retries are the caller's ({@link RecordQueue}).
 *
 * @example
 * const stdout: RecordDestination = {
 *   type: 'stdout',
 *   async send(records) { for (const r of records) console.log(JSON.stringify(r)); },
 * };
 * new Router(modelList, { callbacks: [stdout] });
 */
export interface RecordDestination {
  /** Names the destination in stats, metric labels and log lines (`webhook`, `file`, `otlp`, yours). */
  readonly type: string;
  /**
   * Delivers one batch, oldest first. Reject to have the batch retried (with backoff), or reject with a
   * {@link DeliveryError} whose `retryable` is false to give it up at once. `signal` aborts when the
   * send's timeout passes or `close()` runs out of time; a send that ignores it is abandoned anyway.
   */
  send(records: readonly CallRecord[], signal: AbortSignal): Promise<void>;
  /** Releases what the destination holds (connections, a file handle); called once, last. */
  close?(): Promise<void>;
}

/** A failed send; `retryable: false` gives the batch up at once (a 400 will not become a 200). */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** Whether a failed send is worth repeating: anything but a DeliveryError that says otherwise. */
export function isRetryableDelivery(error: unknown): boolean {
  return !(error instanceof DeliveryError) || error.retryable;
}
