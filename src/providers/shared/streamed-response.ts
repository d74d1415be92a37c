import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { clearArray } from '../../shared/clear-array.js';
import { type AbortSource, type AbortTarget, linkAbort, unlinkAbort } from './buffered-response.js';

/**
 * A response body read as it arrives, without a Node stream: pieces are queued as the socket delivers
 * them and taken with `read()`. Past `HIGH_WATER_BYTES` queued the socket is paused, so a reader that
 * stops taking leaves the bytes in the kernel and the upstream slows down.
 */
export interface ByteStream {
  /** Every piece queued, as one Buffer, or null when none is (see `ended`, `error`). */
  read(): Buffer | null;
  /** Every byte arrived and was read. */
  readonly ended: boolean;
  /** What broke the body (the network, an abort), if something did. */
  readonly error: unknown;
  /** Stops reading: the request is aborted unless the body already ended. */
  destroy(): void;
  /** Told (one listener) whenever a piece, the end or a failure arrives. */
  onWake(listener: () => void): void;
  /** Told (one listener) once, when the body closes before its end: cut, aborted or destroyed. */
  onClosedEarly(listener: () => void): void;
}

/** An answer whose body streams: a success with its body, or an error status with its body read. */
export type StreamedResponse =
  | { statusCode: number; headers: IncomingHttpHeaders; body: ByteStream; errorBody?: undefined }
  | { statusCode: number; headers: IncomingHttpHeaders; body?: undefined; errorBody: Buffer };

/** As much as undici's own body stream buffers before it stops reading the socket. */
export const HIGH_WATER_BYTES = 64 * 1024;

const settledAlready = (): void => {};

/**
 * An undici dispatch handler for a streamed answer. It resolves when the headers arrive: with itself
 * as the `ByteStream` of a success, or, for an error status (400 and up), once at most
 * `maxErrorBodyBytes` of the error body are read. Before the headers it rejects with the network
 * failure or the signal's reason. A stream read through `request()` pays for a Node Readable per
 * response and an event per piece; this queues each piece and tells one listener.
 */
export class StreamingHandler implements Dispatcher.DispatchHandler, ByteStream, AbortTarget {
  #resolve: (response: StreamedResponse) => void;
  #reject: (error: unknown) => void;
  readonly #maxErrorBodyBytes: number;
  readonly #signal: AbortSignal | AbortSource | undefined;
  #onAbort: (() => void) | undefined;
  #controller: Dispatcher.DispatchController | undefined;
  #statusCode = 0;
  #headers: IncomingHttpHeaders = {};
  /** The promise is settled: from here on, pieces go to the queue (or the error body). */
  #settled = false;
  #queue: Buffer[] = [];
  #queued = 0;
  #complete = false;
  #closed = false;
  #error: unknown;
  #wake: (() => void) | undefined;
  #closedEarly: (() => void) | undefined;

  constructor(
    resolve: (response: StreamedResponse) => void,
    reject: (error: unknown) => void,
    maxErrorBodyBytes: number,
    signal: AbortSignal | AbortSource | undefined,
  ) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#maxErrorBodyBytes = maxErrorBodyBytes;
    this.#signal = signal;
    if (!signal) return;
    if (signal.aborted) {
      this.#fail(signal.reason);
      return;
    }
    this.#onAbort = linkAbort(signal, this);
  }

  // ---- ByteStream ---------------------------------------------------------------------------------

  read(): Buffer | null {
    const queue = this.#queue;
    if (queue.length === 0) return null;
    // everything queued at once: a socket read of many events comes as many pieces (one per chunk of
    // the chunked encoding), and decoding one joined piece costs a copy instead of a decoder call
    // (a string, a crossing into C++) per piece
    const bytes = queue.length === 1 ? queue[0]! : Buffer.concat(queue, this.#queued);
    clearArray(queue);
    this.#queued = 0;
    this.#controller?.paused && this.#controller.resume();
    return bytes;
  }

  get ended(): boolean {
    return this.#complete && this.#queue.length === 0;
  }

  get error(): unknown {
    return this.#error;
  }

  destroy(): void {
    this.#queue = [];
    this.#queued = 0;
    if (this.#closed) return;
    this.#close();
    this.#release();
    if (!this.#complete) this.#controller?.abort(new Error('the stream was closed by its reader'));
  }

  onWake(listener: () => void): void {
    this.#wake = listener;
  }

  onClosedEarly(listener: () => void): void {
    // the body may have broken in the same read as its headers, before anyone could listen
    if (this.#closed && !this.#complete) listener();
    else if (!this.#closed) this.#closedEarly = listener;
  }

  // ---- the signal -------------------------------------------------------------------------------

  abortedBy(reason: unknown): void {
    if (this.#closed) return;
    this.#controller?.abort(reason as Error);
    if (this.#settled) this.#broke(reason);
    else this.#fail(reason);
  }

  // ---- undici ----------------------------------------------------------------------------------

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#closed) controller.abort((this.#signal?.reason as Error) ?? new Error('request abandoned'));
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    // undici's controller keeps the raw header Buffers, views on the socket read that brought them:
    // a stream would hold them, and that read, for as long as it lasts (headers are parsed by now)
    controller.rawHeaders = null;
    // an informational answer (103 Early Hints) comes before the real one: wait for that
    if (this.#settled || this.#closed || statusCode < 200) return;
    this.#statusCode = statusCode;
    if (statusCode >= 400) {
      this.#headers = headers; // settled once its body is read
      return;
    }
    this.#settled = true;
    const resolve = this.#resolve;
    // settled: the promise (and its answer, headers included) need not live as long as the body
    this.#resolve = this.#reject = settledAlready;
    resolve({ statusCode, headers, body: this });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#closed) return;
    if (!this.#settled) {
      // an error body says what it has to say early: keep what fits, leave the rest unread
      const room = this.#maxErrorBodyBytes - this.#queued;
      this.#queue.push(room < chunk.length ? chunk.subarray(0, room) : chunk);
      this.#queued += Math.min(room, chunk.length);
      if (this.#queued >= this.#maxErrorBodyBytes) {
        this.#answerError();
        controller.abort(new Error('error body cut at its limit'));
      }
      return;
    }
    this.#queue.push(chunk);
    this.#queued += chunk.length;
    if (this.#queued >= HIGH_WATER_BYTES) controller.pause();
    this.#wake?.();
  }

  onResponseEnd(): void {
    if (this.#closed) return;
    this.#complete = true;
    if (!this.#settled) this.#answerError();
    else {
      this.#wake?.();
      this.#release();
    }
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.#settled) this.#broke(error);
    // an error body cut short: the status still says what happened
    else if (this.#statusCode >= 400 && !this.#closed) this.#answerError();
    else this.#fail(error);
  }

  // ---- settling ----------------------------------------------------------------------------------

  #answerError(): void {
    const body = Buffer.concat(this.#queue, this.#queued);
    this.#queue = [];
    this.#settled = true;
    this.#close();
    this.#resolve({ statusCode: this.#statusCode, headers: this.#headers, errorBody: body });
    this.#release();
  }

  /** A failure before the promise settled: it rejects. */
  #fail(error: unknown): void {
    if (this.#settled || this.#closed) return;
    this.#settled = true;
    this.#close();
    this.#reject(error);
    this.#release();
  }

  /** A failure after the body was handed out: the reader sees it as `error`. */
  #broke(error: unknown): void {
    if (this.#closed || this.#complete) return;
    this.#error ??= error;
    this.#close();
    this.#wake?.();
    this.#release();
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#signal) unlinkAbort(this.#signal, this, this.#onAbort);
    this.#onAbort = undefined;
    if (this.#settled && !this.#complete) this.#closedEarly?.();
    this.#closedEarly = undefined;
  }

  /**
   * Lets go of the caller's objects once nothing more will be told: undici keeps a finished request
   * (and so its handler) in its client's queue for the next 256 requests on that connection, and a
   * handler still holding the reader would keep the whole stream alive that long (measured: most of
   * each stream's objects promoted to the old generation, GC the largest cost of a stream).
   */
  #release(): void {
    this.#wake = undefined;
    this.#closedEarly = undefined;
    this.#resolve = settledAlready;
    this.#reject = settledAlready;
  }
}
