import type { CallSignal } from '../../src/index.js';

/**
 * A caller's signal that is not an AbortSignal (CallControl.signal takes any CallSignal): what a server
 * may pass to save an AbortController per request. It counts the listeners it holds.
 */
export class PlainSignal implements CallSignal {
  aborted = false;
  reason: unknown;
  readonly listeners = new Set<() => void>();

  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.delete(listener);
  }

  abort(reason: unknown): void {
    this.aborted = true;
    this.reason = reason;
    for (const listener of [...this.listeners]) listener();
  }
}
