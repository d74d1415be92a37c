import type { CallSignal } from '@svc/router';

/**
 * A call's abort signal without an AbortController: on Node 20, making an AbortController's signal
 * costs about 2.7 µs and each abort listener's add and remove 1.4 µs more (a few percent of the
 * gateway's CPU per call); this costs a few ns. The router takes it as a `CallSignal`; undici takes any
 * signal with `addEventListener` (its `once` option is moot: a signal aborts once).
 */
export class UpstreamSignal implements CallSignal {
  aborted = false;
  reason: unknown;
  #listeners: Array<() => void> = [];

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.#listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const i = this.#listeners.indexOf(listener);
    if (i !== -1) this.#listeners.splice(i, 1);
  }

  /** Aborts with `reason`, telling each listener once; a second abort does nothing. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
  }
}
