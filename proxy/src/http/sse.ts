import type { ServerResponse } from 'node:http';

/** The response headers of every event stream the proxy sends. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // no `connection` header: Node says keep-alive, or `close` for a stream that starts while draining
  // proxies in front (nginx) must not buffer a stream
  'x-accel-buffering': 'no',
};

/** One `data:` event. */
export function sseData(data: unknown): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** One named event (`event: x` then `data:`), as Anthropic's stream has them. */
export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

const uncork = (raw: ServerResponse): void => raw.uncork();

/**
 * Writes one frame and, when the socket's buffer is full, waits until it drains (or the client is
 * gone): a slow reader slows the upstream read instead of growing the proxy's memory. True at once
 * (no promise) when the frame fit in the buffer; false when the client has gone away.
 *
 * Frames written in one turn of the event loop (chunks that arrived in one read of the upstream's
 * socket) leave in one socket write: the response is corked at the turn's first frame and uncorked
 * once the turn's promise jobs have run. A frame is never held past its turn.
 */
export function writeFrame(raw: ServerResponse, frame: string): boolean | Promise<boolean> {
  if (raw.destroyed || raw.writableEnded) return false;
  if (frame === '') return true;
  if (raw.writableCorked === 0) {
    raw.cork();
    process.nextTick(uncork, raw);
  }
  if (raw.write(frame)) return true;
  return new Promise<boolean>((resolve) => {
    const done = (open: boolean) => {
      raw.off('drain', onDrain);
      raw.off('close', onClose);
      resolve(open);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    raw.on('drain', onDrain);
    raw.on('close', onClose);
  });
}
