import type { FastifyReply } from 'fastify';
import { clientGoneSignal } from './call-state.js';

/**
 * When a model call stops early. `clientGone` fires when the client goes away before the reply is
 * complete. `upstream`, the router call's signal, follows it until the answer starts to reach the
 * client (`answering()`): a call whose client left before any of its answer cancels its upstream at
 * once, while an answer being sent is read on after its client leaves (to learn its usage, within
 * the `disconnect_read_*` bound) and stops only on `stopUpstream()`.
 */
export class CallAbort {
  readonly clientGone: AbortSignal;
  readonly #upstream = new AbortController();
  #answering = false;

  constructor(reply: FastifyReply) {
    const clientGone = clientGoneSignal(reply);
    this.clientGone = clientGone;
    clientGone.addEventListener(
      'abort',
      () => {
        if (!this.#answering) this.#upstream.abort(clientGone.reason);
      },
      { once: true },
    );
  }

  /** The signal the router call runs under. */
  get upstream(): AbortSignal {
    return this.#upstream.signal;
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
