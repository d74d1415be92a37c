import type { MockExchange } from '../types/mock-format.js';
import { streamOptions } from './mock-behavior.js';

/** A streamed answer in some wire format: its frames, how it ends, and how it reports an error. */
export interface StreamPlan {
  contentType: string;
  frames: Array<string | Uint8Array>;
  /** Frames that close the stream properly (`data: [DONE]`, `message_stop`); may be empty. */
  terminal: Array<string | Uint8Array>;
  /** The format's in-stream error frame. */
  errorFrame: string | Uint8Array;
  /** An event whose data is not JSON, in the format's framing. @default an SSE `data: {not json` event */
  malformedFrame?: string | Uint8Array;
}

/** The SSE event `malformedAfter` sends by default. */
export const MALFORMED_SSE_FRAME = 'data: {"choices": [ this is not json\n\n';

/** Writes a frame one byte at a time, `ms` apart; false when the client went away. */
async function drip(exchange: MockExchange, frame: string | Uint8Array, ms: number): Promise<boolean> {
  const bytes = typeof frame === 'string' ? Buffer.from(frame) : frame;
  for (let i = 0; i < bytes.length; i++) {
    exchange.res.write(bytes.subarray(i, i + 1));
    if (!(await exchange.wait(ms))) return false;
  }
  return true;
}

/**
 * Writes a stream, applying the behavior's faults: a cut connection, a stall, an error event, a clean
 * end too early, a missing terminal event, a malformed event, bytes dripped one at a time, a last
 * chunk held back. Shared by
 * every format so their faults behave alike.
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
  const write = async (frame: string | Uint8Array): Promise<boolean> => {
    if (options.dripMs) return drip(exchange, frame, options.dripMs);
    if (options.cutAfter === undefined) res.write(frame);
    else await new Promise<void>((resolve) => res.write(frame, () => resolve()));
    return true;
  };
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
    if (options.endAfter === i) {
      res.end();
      return;
    }
    const last = i === plan.frames.length - 1;
    if (last && options.lastChunkDelayMs && !(await exchange.wait(options.lastChunkDelayMs))) return;
    if (last && options.holdLastChunk && !(await exchange.until(options.holdLastChunk))) return;
    if (options.malformedAfter === i && !(await write(plan.malformedFrame ?? MALFORMED_SSE_FRAME))) return;
    if (!(await write(plan.frames[i]!))) return;
    if (options.chunkDelayMs && !(await exchange.wait(options.chunkDelayMs))) return;
  }
  if (options.cutAfter !== undefined && options.cutAfter >= plan.frames.length) {
    res.socket?.destroy();
    return;
  }
  if (options.endAfter !== undefined) {
    res.end();
    return;
  }
  if (!options.omitTerminal) for (const frame of plan.terminal) if (!(await write(frame))) return;
  res.end();
}

/** One SSE frame: optional `event:` line and a JSON `data:` line. */
export function sseFrame(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return event ? `event: ${event}\ndata: ${payload}\n\n` : `data: ${payload}\n\n`;
}
