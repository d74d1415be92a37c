import type { CallSignal } from '@svc/router';
import type { FastifyReply } from 'fastify';
import { UpstreamSignal } from './upstream-signal.js';

/**
 * When a model call stops early. The client is `gone` when it goes away before its reply is
 * complete. `upstream`, the router call's signal, follows it until the answer starts to reach the
 * client (`answering()`): a call whose client left before any of its answer cancels its upstream at
 * once, while an answer being sent is read on after its client leaves (to learn its usage, within
 * the `disconnect_read_*` bound) and stops only on `stopUpstream()`.
 *
 * One signal per call, the upstream's, and not an AbortController's (`UpstreamSignal`): the client's
 * leaving is a flag and one callback, not a second signal (an AbortController and its listeners cost
 * a few µs per call on Node 20, a visible share of the proxy's own CPU).
 */
export class CallAbort {
  readonly #upstream = new UpstreamSignal();
  #answering = false;
  #goneWith: Error | undefined;
  #onGone: (() => void) | undefined;

  constructor(reply: FastifyReply) {
    const raw = reply.raw;
    const onClose = () => {
      if (raw.writableFinished) return;
      const reason = new Error('the client closed the connection');
      this.#goneWith = reason;
      if (!this.#answering) this.#upstream.abort(reason);
      this.#onGone?.();
    };
    // a client that left before the call got here (while it was authenticated): Node tells no
    // listener added after the close, and the call would be admitted, served and never closed
    if (raw.closed) onClose();
    else raw.once('close', onClose);
  }

  /** Whether the client went away before its reply was complete. */
  get gone(): boolean {
    return this.#goneWith !== undefined;
  }

  /** Why the client is gone (undefined while it is there). */
  get goneReason(): Error | undefined {
    return this.#goneWith;
  }

  /**
   * The signal the router call runs under. Until the answer starts, it fires when the client leaves:
   * the signal for anything the call waits on before (its admission).
   */
  get upstream(): CallSignal {
    return this.#upstream;
  }

  /** Runs `listener` when the client leaves; at once if it has left already. One listener per call. */
  whenGone(listener: () => void): void {
    this.#onGone = listener;
    if (this.gone) listener();
  }

  /** The answer has started to reach the client: its leaving no longer cancels the upstream by itself. */
  answering(): void {
    this.#answering = true;
  }

  /** Cancels the upstream call (the router's read of it rejects with `reason`). */
  stopUpstream(reason: unknown): void {
    this.#upstream.abort(reason);
  }
}
