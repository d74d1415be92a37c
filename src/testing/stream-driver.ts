import type { MockExchange } from './formats/format.js';
import { streamOptions } from './mock-behavior.js';

/** A streamed answer in some wire format: its frames, how it ends, and how it reports an error. */
export interface StreamPlan {
  contentType: string;
  frames: Array<string | Uint8Array>;
  /** Frames that close the stream properly (`data: [DONE]`, `message_stop`); may be empty. */
  terminal: Array<string | Uint8Array>;
  /** The format's in-stream error frame. */
  errorFrame: string | Uint8Array;
}

/**
 * Writes a stream, applying the behavior's faults: a cut connection, a stall, an error event, or a
 * missing terminal event. Shared by every format so their faults behave alike.
 */
export async function driveStream(exchange: MockExchange, plan: StreamPlan): Promise<void> {
  const { res } = exchange;
  const options = streamOptions(exchange.behavior);
  res.writeHead(200, {
    'content-type': plan.contentType,
    'cache-control': 'no-cache',
    ...exchange.behavior.headers,
  });
  // frames must reach the client before a cut: destroying the socket discards unflushed writes
  const write = (frame: string | Uint8Array) =>
    options.cutAfter === undefined
      ? Promise.resolve(res.write(frame))
      : new Promise<void>((resolve) => res.write(frame, () => resolve()));
  for (let i = 0; i < plan.frames.length; i++) {
    if (options.cutAfter === i) {
      res.socket?.destroy();
      return;
    }
    if (options.stallAfter === i) {
      await new Promise<void>((resolve) => res.once('close', () => resolve()));
      return;
    }
    if (options.errorAfter === i) {
      res.end(plan.errorFrame);
      return;
    }
    await write(plan.frames[i]!);
    if (options.chunkDelayMs && !(await exchange.wait(options.chunkDelayMs))) return;
  }
  if (options.cutAfter !== undefined && options.cutAfter >= plan.frames.length) {
    res.socket?.destroy();
    return;
  }
  if (!options.omitTerminal) for (const frame of plan.terminal) res.write(frame);
  res.end();
}

/** One SSE frame: optional `event:` line and a JSON `data:` line. */
export function sseFrame(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return event ? `event: ${event}\ndata: ${payload}\n\n` : `data: ${payload}\n\n`;
}
