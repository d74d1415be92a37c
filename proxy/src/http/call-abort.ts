import type { FastifyReply } from 'fastify';

/**
 * When a model call stops early. `clientGone` fires when the client goes away before the reply is
 * complete. `upstream`, the router call's signal, follows it until the answer starts to reach the
 * client (`answering()`): a call whose client left before any of its answer cancels its upstream at
 * once, while an answer being sent is read on after its client leaves (to learn its usage, within
 * the `disconnect_read_*` bound) and stops only on `stopUpstream()`.
 */
export class CallAbort {
  readonly clientGone: AbortSignal;
  readonly #upstream: AbortController | undefined;
  #answering = false;

  /**
   * @param readOn whether the answer may be read on after its client leaves (a stream): its upstream
   * call then gets a signal of its own. A plain answer is whole before any of it is sent, so its call
   * runs under `clientGone` itself: one AbortController per call, not two (each, with its listener,
   * costs a few µs, a visible share of the proxy's own CPU per call).
   */
  constructor(reply: FastifyReply, readOn: boolean) {
    const gone = new AbortController();
    const upstream = readOn ? new AbortController() : undefined;
    this.clientGone = gone.signal;
    this.#upstream = upstream;
    const raw = reply.raw;
    raw.once('close', () => {
      if (raw.writableFinished) return;
      const reason = new Error('the client closed the connection');
      gone.abort(reason);
      if (upstream && !this.#answering) upstream.abort(reason);
    });
  }

  /** The signal the router call runs under. */
  get upstream(): AbortSignal {
    return this.#upstream?.signal ?? this.clientGone;
  }

  /** The answer has started to reach the client: its leaving no longer cancels the upstream by itself. */
  answering(): void {
    this.#answering = true;
  }

  /**
   * Cancels the upstream call (the router's read of it rejects with `reason`). Only an answer read on
   * has an upstream left to cancel: a plain one was whole before it was sent.
   */
  stopUpstream(reason: unknown): void {
    this.#upstream?.abort(reason);
  }
}
