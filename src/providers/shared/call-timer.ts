type Listener = () => void;

/**
 * The smallest signal undici accepts (`aborted`, `reason`, `once`/`on`, `removeListener`). A Node
 * AbortController is an EventTarget, whose listener bookkeeping cost several percent of a call's CPU.
 */
class AbortHandle {
  aborted = false;
  reason: unknown;
  #listeners: Listener[] = [];

  on(_event: 'abort', listener: Listener): this {
    this.#listeners.push(listener);
    return this;
  }

  once(event: 'abort', listener: Listener): this {
    return this.on(event, listener);
  }

  removeListener(_event: 'abort', listener: Listener): this {
    const i = this.#listeners.indexOf(listener);
    if (i !== -1) this.#listeners.splice(i, 1);
    return this;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
  }
}

/**
 * A precise per-call deadline. undici's own headers/body timeouts tick at about one second, which
 * turns `timeout: 0.2` into a wait of up to a second; this timer aborts the request on time. It also
 * forwards the caller's abort, so one signal reaches undici.
 */
export class CallTimer {
  readonly #handle = new AbortHandle();
  readonly #caller: AbortSignal | undefined;
  readonly #onCallerAbort: Listener | undefined;
  #ms: number;
  #timer: NodeJS.Timeout;
  #expired = false;

  constructor(ms: number, caller: AbortSignal | undefined) {
    this.#ms = ms;
    this.#timer = setTimeout(this.#expire, ms);
    if (caller) {
      this.#caller = caller;
      this.#onCallerAbort = () => this.#handle.abort(caller.reason);
      if (caller.aborted) this.#onCallerAbort();
      else caller.addEventListener('abort', this.#onCallerAbort, { once: true });
    }
  }

  #expire = (): void => {
    this.#expired = true;
    // a stream nobody reads never reaches clear(): the caller's signal must not keep our listener
    if (this.#onCallerAbort) this.#caller?.removeEventListener('abort', this.#onCallerAbort);
    this.#handle.abort(new Error(`no data within ${this.#ms} ms`));
  };

  /** The signal to give undici (an EventEmitter-shaped one). */
  get signal(): AbortSignal {
    return this.#handle as unknown as AbortSignal;
  }

  /** Whether the deadline (not the caller) ended the call. */
  get expired(): boolean {
    return this.#expired;
  }

  /** Starts the deadline again with a new length (for streams: `stream_timeout` between chunks). */
  restart(ms: number): void {
    clearTimeout(this.#timer);
    this.#ms = ms;
    this.#timer = setTimeout(this.#expire, ms);
  }

  /** Starts the same deadline again (a chunk arrived). */
  refresh(): void {
    this.#timer.refresh();
  }

  clear(): void {
    clearTimeout(this.#timer);
    if (this.#onCallerAbort) this.#caller?.removeEventListener('abort', this.#onCallerAbort);
  }
}
