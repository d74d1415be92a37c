import { performance } from 'node:perf_hooks';
import type { CallSignal } from '../../shared/call-signal.js';
import type { DeadlineQueue, Deadline as QueuedDeadline } from '../../shared/deadline-queue.js';
import { clampTimerMs } from '../../shared/timers.js';
import type { AbortSource, AbortTarget } from './buffered-response.js';

type Listener = () => void;

/**
 * The smallest signal undici accepts (`aborted`, `reason`, `once`/`on`, `removeListener`). A Node
 * AbortController is an EventTarget, whose listener bookkeeping cost several percent of a call's CPU.
 * It also takes one `AbortTarget` (`attach`), told without a closure: see `BufferingHandler`.
 */
class AbortHandle implements AbortSource {
  aborted = false;
  reason: unknown;
  // made on the first listener: a plain call's handler attaches as the target instead
  #listeners: Listener[] | undefined;
  #target: AbortTarget | undefined;

  attach(target: AbortTarget): void {
    this.#target = target;
  }

  detach(target: AbortTarget): void {
    if (this.#target === target) this.#target = undefined;
  }

  on(_event: 'abort', listener: Listener): this {
    this.#listeners ??= [];
    this.#listeners.push(listener);
    return this;
  }

  once(event: 'abort', listener: Listener): this {
    return this.on(event, listener);
  }

  removeListener(_event: 'abort', listener: Listener): this {
    const i = this.#listeners?.indexOf(listener) ?? -1;
    if (i !== -1) this.#listeners!.splice(i, 1);
    return this;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listeners ?? [];
    this.#listeners = undefined;
    for (const listener of listeners) listener();
    const target = this.#target;
    this.#target = undefined;
    target?.abortedBy(reason);
  }
}

/**
 * Milliseconds as the seconds every setting is written in.
 *
 * @example seconds(200) // => '0.2 s'
 */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

const NEVER = Number.POSITIVE_INFINITY;

// a limit that is not a positive number (undefined, 0, NaN from a caller outside TypeScript) is none
const limit = (ms: number | undefined): number => (ms !== undefined && ms > 0 ? ms : NEVER);

/** Which deadline fired, for the message. */
type Deadline = 'gap' | 'unread' | 'firstToken' | 'total';

/**
 * A call's deadlines on one Node timer, aborting the request on time (undici's own headers/body
 * timeouts tick at about one second, so `timeout: 0.2` would wait up to a second). It also forwards
 * the caller's abort, so one signal reaches undici.
 *
 * The gap deadline (`timeout` for a plain call, never restarted; `stream_timeout` for a stream,
 * restarted by every complete event) runs from the request's start, as do `first_token_timeout` and
 * `stream_total_timeout`. Restarting costs a clock read, not a timer operation: the timer is armed for
 * the nearest deadline and, when it fires early because an event moved that deadline, armed again.
 *
 * A stream's gap is the upstream's only while the caller waits for a chunk: from the moment a chunk
 * is handed over (`delivered`) until the caller asks for the next (`reading`), the upstream cannot be
 * blamed (nobody reads its bytes), and `stream_timeout` instead bounds the caller's pause: past it the
 * stream is closed, and `onUnread` is told (a deadline that fires during a pause is the caller's).
 */
export class CallTimer {
  readonly #handle = new AbortHandle();
  readonly #caller: CallSignal | undefined;
  readonly #onCallerAbort: Listener | undefined;
  readonly #start = performance.now();
  readonly #stream: boolean;
  readonly #gapMs: number;
  readonly #totalMs: number;
  #firstTokenMs: number;
  #lastEvent: number;
  #events = false;
  /** Whether the caller is waiting for the next chunk (else it holds one: see `delivered`). */
  #reading = true;
  #deliveredAt = 0;
  readonly #onUnread: Listener | undefined;
  // a plain call's one deadline sits on the router's shared queue; a stream's moving ones on a timer
  #timer: NodeJS.Timeout | undefined;
  #deadline: QueuedDeadline | undefined;
  #expiry: string | undefined;

  private constructor(
    stream: boolean,
    gapMs: number,
    firstTokenMs: number | undefined,
    totalMs: number | undefined,
    caller: CallSignal | undefined,
    deadlines: DeadlineQueue | undefined,
    onUnread?: Listener,
  ) {
    this.#stream = stream;
    this.#onUnread = onUnread;
    this.#gapMs = limit(gapMs);
    this.#firstTokenMs = limit(firstTokenMs);
    this.#totalMs = limit(totalMs);
    this.#lastEvent = this.#start;
    if (deadlines && !stream) this.#deadline = deadlines.set(this.#gapMs, this.#check);
    else {
      this.#timer = setTimeout(
        this.#check,
        clampTimerMs(Math.min(this.#gapMs, this.#firstTokenMs, this.#totalMs)),
      );
    }
    if (caller) {
      this.#caller = caller;
      this.#onCallerAbort = () => this.#handle.abort(caller.reason);
      if (caller.aborted) this.#onCallerAbort();
      else caller.addEventListener('abort', this.#onCallerAbort);
    }
  }

  /**
   * A plain call's timer: `timeoutMs` for the whole call, on `deadlines` when given (the router's
   * shared queue), else on a timer of its own.
   */
  static forCall(
    timeoutMs: number,
    caller: CallSignal | undefined,
    deadlines?: DeadlineQueue | undefined,
  ): CallTimer {
    return new CallTimer(false, timeoutMs, undefined, undefined, caller, deadlines);
  }

  /**
   * A stream's timer: `stream_timeout` between events, `first_token_timeout`, `stream_total_timeout`.
   * `onUnread` is told when a deadline closes the stream while the caller holds a chunk without asking
   * for the next.
   */
  static forStream(
    limits: {
      streamTimeoutMs: number;
      firstTokenTimeoutMs?: number | undefined;
      streamTotalTimeoutMs?: number | undefined;
    },
    caller: CallSignal | undefined,
    onUnread?: Listener,
  ): CallTimer {
    return new CallTimer(
      true,
      limits.streamTimeoutMs,
      limits.firstTokenTimeoutMs,
      limits.streamTotalTimeoutMs,
      caller,
      undefined,
      onUnread,
    );
  }

  #check = (): void => {
    const now = performance.now();
    let at = (this.#reading ? this.#lastEvent : this.#deliveredAt) + this.#gapMs;
    let which: Deadline = this.#reading ? 'gap' : 'unread';
    const firstToken = this.#start + this.#firstTokenMs;
    if (firstToken <= at) {
      at = firstToken;
      which = 'firstToken';
    }
    const total = this.#start + this.#totalMs;
    if (total < at) {
      at = total;
      which = 'total';
    }
    // timers count whole milliseconds on a clock that may trail performance.now() by a fraction
    if (at <= now + 1) this.#expire(which);
    else this.#timer = setTimeout(this.#check, clampTimerMs(Math.ceil(at - now)));
  };

  #expire(which: Deadline): void {
    this.#expiry = this.#describe(which);
    if (!this.#reading) this.#onUnread?.();
    // a stream nobody reads never reaches clear(): the caller's signal must not keep our listener
    if (this.#onCallerAbort) this.#caller?.removeEventListener('abort', this.#onCallerAbort);
    this.#handle.abort(new Error(this.#expiry));
  }

  #describe(which: Deadline): string {
    if (which === 'firstToken')
      return `no first token within first_token_timeout (${seconds(this.#firstTokenMs)})`;
    if (which === 'total') return `not finished within stream_total_timeout (${seconds(this.#totalMs)})`;
    if (which === 'unread')
      return `not read for stream_timeout (${seconds(this.#gapMs)}) since the previous chunk`;
    if (!this.#stream) return `no answer within timeout (${seconds(this.#gapMs)})`;
    return this.#events
      ? `no event for stream_timeout (${seconds(this.#gapMs)}) after the previous one`
      : `no event within stream_timeout (${seconds(this.#gapMs)}) of the request's start`;
  }

  /** The signal to give undici (an EventEmitter-shaped one). */
  get signal(): AbortSignal {
    return this.#handle as unknown as AbortSignal;
  }

  /** What ended the call when a deadline did (e.g. `no first token within first_token_timeout (0.2 s)`). */
  get expiry(): string | undefined {
    return this.#expiry;
  }

  /** A complete stream event arrived: the gap deadline starts again. Returns the clock it read. */
  event(): number {
    const now = performance.now();
    this.#lastEvent = now;
    this.#events = true;
    return now;
  }

  /** The first content chunk arrived: `first_token_timeout` no longer applies. */
  firstToken(): void {
    this.#firstTokenMs = NEVER;
  }

  /**
   * A chunk went to the caller: until it asks for the next, `stream_timeout` bounds its pause.
   * `now`: the clock as the caller's code last read it, when nothing waited since (a clock read
   * less per chunk).
   */
  delivered(now = performance.now()): void {
    this.#reading = false;
    this.#deliveredAt = now;
  }

  /** The caller asks for the next chunk: the upstream's gap applies again. */
  reading(): void {
    this.#reading = true;
  }

  clear(): void {
    if (this.#deadline) this.#deadline.cancel();
    else clearTimeout(this.#timer);
    if (this.#onCallerAbort) this.#caller?.removeEventListener('abort', this.#onCallerAbort);
  }
}
