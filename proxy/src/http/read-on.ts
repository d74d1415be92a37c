import type { DisconnectRead } from '../config/general-settings.js';
import type { CallAbort } from './call-abort.js';

/**
 * Bounds how far a stream's upstream is read after its client left (to learn the answer's usage):
 * from the moment the client is gone, at most `timeoutMs` and `maxBytes` of the events that would have
 * been sent; past either the upstream call is cancelled.
 */
export class ReadOn {
  #timer: NodeJS.Timeout | undefined;
  #bytes = 0;
  #started = false;
  #stopped = false;
  readonly #onCut = () =>
    this.abort.stopUpstream(new Error('the proxy is shutting down: stopped reading the answer'));

  constructor(
    private readonly abort: Pick<CallAbort, 'whenGone' | 'stopUpstream'>,
    private readonly bound: DisconnectRead,
  ) {
    abort.whenGone(() => this.#start());
  }

  /** Counts `bytes` read after the client left; false (and the upstream cancelled) once over the bound. */
  more(bytes: number): boolean {
    this.#start();
    this.#bytes += bytes;
    if (this.#bytes <= this.bound.maxBytes) return true;
    this.abort.stopUpstream(
      new Error(`read ${this.bound.maxBytes} bytes of the answer after the client left, without its usage`),
    );
    return false;
  }

  /** The stream is over: no more reading to bound. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.bound.cut?.removeEventListener('abort', this.#onCut);
  }

  #start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    const { timeoutMs, cut } = this.bound;
    if (cut) {
      if (cut.aborted) {
        this.#onCut();
        return;
      }
      cut.addEventListener('abort', this.#onCut, { once: true });
    }
    this.#timer = setTimeout(
      () =>
        this.abort.stopUpstream(
          new Error(`read the answer for ${timeoutMs} ms after the client left, without its usage`),
        ),
      timeoutMs,
    );
    // a timer must not keep a closing process alive
    this.#timer.unref();
  }
}
