import { clearArray } from '../../shared/clear-array.js';
import { DONE, yielded } from '../../shared/iteration.js';
import type { ChatCompletionChunk } from '../../types/index.js';
import type { CallTimer } from './call-timer.js';
import { carriesContent } from './chunk-content.js';
import { failureOf } from './invoke.js';
import type { CallOptions, ChunkTransform, ProviderTarget } from './provider-adapter.js';
import { responseTooLarge } from './provider-errors.js';
import { SseDecoder, type SseEvent } from './sse.js';
import type { ByteStream } from './streamed-response.js';

/** Where the body is: being read, ended (its last events still to transform), or every chunk made. */
type Phase = 'reading' | 'ending' | 'ended';

/**
 * A server-sent-event body read as chunks with no async turn per chunk: bytes are taken from the
 * body (`read()`) only when the caller asks for a chunk and none is in hand, then decoded, transformed
 * and guarded synchronously; `next()` waits only when nothing has arrived. Nothing is decoded ahead of
 * the caller, so a slow caller leaves the bytes queued and then in the socket, and the upstream slows
 * down (the body's high-water mark bounds what is queued). Events are handed to the transform one at
 * a time, as the caller asks, so `stream_timeout` restarts when an event is taken, as with `parseSse`.
 *
 * The guards are `invokeStream`'s: chunks before the first content chunk (a role-only opener) are held
 * back and given with it, so a stream that never produces content fails before its first chunk; the
 * first content chunk ends `first_token_timeout`; the time the caller holds a chunk is its own
 * (`CallTimer.delivered`/`reading`); a failure becomes a contract error; the timer and the socket are
 * released however the stream ends.
 */
export class StreamReader<Chunk extends ChatCompletionChunk> implements AsyncIterableIterator<Chunk> {
  readonly #decoder = new SseDecoder();
  readonly #events: SseEvent[] = [];
  #eventAt = 0;
  readonly #ready: Chunk[] = [];
  #readyAt = 0;
  #held: Chunk[] | undefined;
  #answering = false;
  /** A chunk is with the caller: its next `next()` ends its pause. */
  #holding = false;
  #phase: Phase = 'reading';
  #closed = false;
  #size = 0;
  #wake: (() => void) | undefined;
  readonly #onWake = (): void => {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  };

  constructor(
    private readonly body: ByteStream,
    private readonly transform: ChunkTransform<Chunk>,
    private readonly target: ProviderTarget,
    private readonly options: CallOptions,
    private readonly timer: CallTimer,
  ) {
    body.onWake(this.#onWake);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Chunk>> {
    let result: IteratorResult<Chunk> | undefined;
    try {
      result = this.nextReady();
    } catch (err) {
      return Promise.reject(err);
    }
    return result ? Promise.resolve(result) : this.#waitForBytes();
  }

  /**
   * The next result when it can be had without waiting (bytes already arrived), else undefined and
   * `next()` waits for it: a caller that takes this path pays no promise for a chunk at hand. Throws
   * what `next()` would reject with.
   */
  nextReady(): IteratorResult<Chunk> | undefined {
    if (this.#closed) return DONE;
    try {
      if (this.#holding) {
        this.#holding = false;
        // a deadline that fired during the caller's pause closed the stream: its failure comes next
        this.timer.reading();
        if (this.timer.expiry !== undefined) throw new Error(this.timer.expiry);
      }
      return this.#step();
    } catch (err) {
      throw this.#fail(err);
    }
  }

  return(): Promise<IteratorResult<Chunk>> {
    this.#close();
    return Promise.resolve(DONE);
  }

  async #waitForBytes(): Promise<IteratorResult<Chunk>> {
    try {
      for (;;) {
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        if (this.#closed) return DONE;
        const result = this.#step();
        if (result) return result;
      }
    } catch (err) {
      throw this.#fail(err);
    }
  }

  /** The next result in hand or made from bytes already buffered; undefined when bytes must be waited for. */
  #step(): IteratorResult<Chunk> | undefined {
    // the clock read for an event taken in this step, which hands its chunk over microseconds later
    let now: number | undefined;
    for (;;) {
      if (this.#readyAt < this.#ready.length) return this.#handOut(now);
      if (this.#eventAt < this.#events.length) {
        const event = this.#events[this.#eventAt++]!;
        if (this.#eventAt === this.#events.length) {
          clearArray(this.#events);
          this.#eventAt = 0;
        }
        now = this.timer.event();
        // the transform's chunks go straight to the caller's queue (empty here: it is drained first)
        const from = this.#ready.length;
        this.transform.event(event, this.#ready);
        if (!this.#answering) this.#guard(from);
        continue;
      }
      if (this.#phase === 'ended') {
        this.#close();
        return DONE;
      }
      if (this.#phase === 'ending') {
        const from = this.#ready.length;
        this.transform.end(this.#ready);
        if (!this.#answering) this.#guard(from);
        if (this.#held) this.#ready.push(...this.#held);
        this.#held = undefined;
        this.#phase = 'ended';
        continue;
      }
      const bytes = this.body.read();
      if (bytes !== null) {
        this.#take(bytes);
        continue;
      }
      const error = this.body.error;
      if (error !== undefined) throw error;
      if (this.body.ended) {
        this.#decoder.end(this.#events);
        this.#phase = 'ending';
        continue;
      }
      return undefined;
    }
  }

  #take(bytes: Buffer): void {
    const limit = this.options.maxResponseBytes;
    if (limit !== undefined) {
      this.#size += bytes.length;
      if (this.#size > limit) throw responseTooLarge(this.target, limit);
    }
    this.#decoder.push(bytes, this.#events);
  }

  #handOut(now: number | undefined): IteratorResult<Chunk> {
    const chunk = this.#ready[this.#readyAt++]!;
    if (this.#readyAt === this.#ready.length) {
      clearArray(this.#ready);
      this.#readyAt = 0;
    }
    this.timer.delivered(now);
    this.#holding = true;
    return yielded(chunk);
  }

  /**
   * Until the first content chunk: takes the chunks the transform queued from `from` on back, holds
   * those before it, and queues them with it.
   */
  #guard(from: number): void {
    const ready = this.#ready;
    if (from === ready.length) return;
    const fresh = ready.splice(from);
    for (let i = 0; i < fresh.length; i++) {
      const chunk = fresh[i]!;
      if (!this.#answering) {
        if (!carriesContent(chunk)) {
          if (this.#held) this.#held.push(chunk);
          else this.#held = [chunk];
          continue;
        }
        this.#answering = true;
        this.timer.firstToken();
        if (this.#held) ready.push(...this.#held);
        this.#held = undefined;
      }
      ready.push(chunk);
    }
  }

  #fail(err: unknown): unknown {
    if (this.#closed) return err;
    const failure = failureOf(err, this.timer, this.options, this.target, 'stream');
    this.#close();
    return failure;
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.timer.clear();
    // a caller that stops early must not leave the socket busy
    this.body.destroy();
    this.#onWake();
  }
}
