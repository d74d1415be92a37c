import type { ServerResponse } from 'node:http';

/** The response headers of every event stream the proxy sends. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // no `connection` header: Node says keep-alive, or `close` for a stream that starts while draining
  // proxies in front (nginx) must not buffer a stream
  'x-accel-buffering': 'no',
};

/**
 * The headers of a model call's event stream: `SSE_HEADERS` and the call's own. Written out rather
 * than spread: a spread followed by more properties is V8's slow path, a visible cost per stream.
 */
export function sseHeaders(callId: string, overheadMs: string): Record<string, string> {
  return {
    'content-type': SSE_HEADERS['content-type']!,
    'cache-control': SSE_HEADERS['cache-control']!,
    'x-accel-buffering': SSE_HEADERS['x-accel-buffering']!,
    'x-svc-call-id': callId,
    'x-svc-overhead-ms': overheadMs,
  };
}

/** One `data:` event. */
export function sseData(data: unknown): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** One named event (`event: x` then `data:`), as Anthropic's stream has them. */
export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A turn's frames past this many characters are written at once rather than at the turn's end. */
const BATCH_CHARS = 16 * 1024;

/** How long a stream waits for a client that reads nothing, unless told: nginx's `send_timeout`. */
export const DEFAULT_SEND_TIMEOUT_MS = 60_000;

/**
 * Resolves true once the response's socket drains, false if the client goes away first, or reads
 * nothing for `timeoutMs` (then its connection is closed: a client that holds a stream without
 * reading it would hold the call's books, and its budget's reservation, as long as it likes).
 */
function drained(raw: ServerResponse, timeoutMs: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const done = (open: boolean) => {
      clearTimeout(timer);
      raw.off('drain', onDrain);
      raw.off('close', onClose);
      resolve(open);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    raw.on('drain', onDrain);
    raw.on('close', onClose);
    const timer = timeoutMs > 0 ? setTimeout(() => raw.destroy(), timeoutMs) : undefined;
  });
}

const flushTurn = (writer: FrameWriter): void => {
  writer.flush();
};

/**
 * Writes one event stream's frames. The frames written in one turn of the event loop (chunks that
 * arrived in one read of the upstream's socket) leave as one write, one chunk of the response and one
 * system call, once the turn's promise jobs have run: a frame is never held past its turn. When the
 * socket's buffer is full, `write` waits until it drains (or the client is gone), so a slow reader
 * slows the upstream read instead of growing the proxy's memory.
 */
export class FrameWriter {
  #pending = '';
  #scheduled = false;

  /** @param sendTimeoutMs how long a write waits for a client that reads nothing (0: as long as it takes). */
  constructor(
    private readonly raw: ServerResponse,
    private readonly sendTimeoutMs = DEFAULT_SEND_TIMEOUT_MS,
  ) {}

  /**
   * Queues one frame: true at once (no promise) while the socket has room; a promise when it must
   * drain first; false when the client has gone away.
   */
  write(frame: string): boolean | Promise<boolean> {
    const raw = this.raw;
    if (raw.destroyed || raw.writableEnded) return false;
    if (frame !== '') {
      this.#pending += frame;
      if (!this.#scheduled) {
        this.#scheduled = true;
        process.nextTick(flushTurn, this);
      }
    }
    if (this.#pending.length < BATCH_CHARS && !raw.writableNeedDrain) return true;
    return this.flush() || drained(raw, this.sendTimeoutMs);
  }

  /** Writes the frames queued so far; false when the socket's buffer is full. */
  flush(): boolean {
    this.#scheduled = false;
    const pending = this.#pending;
    this.#pending = '';
    const raw = this.raw;
    if (raw.destroyed || raw.writableEnded) return false;
    return pending === '' || raw.write(pending);
  }

  /** Writes what is queued and ends the response. */
  end(): void {
    this.flush();
    if (!this.raw.destroyed) this.raw.end();
  }
}
