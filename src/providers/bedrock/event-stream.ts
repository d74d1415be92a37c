import type { EventStreamCodec, EventStreamMessage } from '../../peers/eventstream-codec.js';
import { clearArray } from '../../shared/clear-array.js';
import type { StreamMonitor } from '../shared/provider-adapter.js';

/** One decoded `application/vnd.amazon.eventstream` message, with the headers Bedrock sets. */
export interface EventStreamFrame {
  /** `:message-type`: `event`, `exception` or `error`. */
  messageType: string | undefined;
  /** `:event-type` of an event (`messageStart`, `contentBlockDelta`, ...). */
  eventType: string | undefined;
  /** `:exception-type` of an exception (`throttlingException`, ...). */
  exceptionType: string | undefined;
  /** `:error-code` / `:error-message` of an `error` message. */
  errorCode: string | undefined;
  errorMessage: string | undefined;
  /** The payload bytes (JSON for Bedrock). */
  payload: Uint8Array;
}

// prelude (total length, headers length, prelude CRC) + message CRC
const MINIMUM_FRAME = 16;

function header(headers: EventStreamMessage['headers'], name: string): string | undefined {
  const value = headers[name];
  return value?.type === 'string' ? (value.value as string) : undefined;
}

function frameOf(codec: EventStreamCodec, bytes: Uint8Array): EventStreamFrame {
  // the codec checks both CRCs and throws on a corrupt frame
  const { headers, body } = codec.decode(bytes);
  return {
    messageType: header(headers, ':message-type'),
    eventType: header(headers, ':event-type'),
    exceptionType: header(headers, ':exception-type'),
    errorCode: header(headers, ':error-code'),
    errorMessage: header(headers, ':error-message'),
    payload: body,
  };
}

/** The first `pieces`' bytes as one array of `size` bytes (the pieces themselves when there is one). */
function joined(pieces: readonly Uint8Array[], size: number): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** The big-endian length that opens the pending bytes (at least 4 of them, over any pieces). */
function frameLength(pieces: readonly Uint8Array[]): number {
  let total = 0;
  let read = 0;
  for (const piece of pieces) {
    for (let i = 0; i < piece.length && read < 4; i++, read++) total = total * 256 + piece[i]!;
    if (read === 4) break;
  }
  return total;
}

/** AWS caps an event-stream message at 16 MiB; a larger declared length is a broken stream, not a wait. */
const MAXIMUM_FRAME = 16 * 1024 * 1024;

/**
 * Splits a binary AWS event stream into its messages, however the bytes were cut into chunks (a frame
 * split across reads waits for the rest), each decoded by `codec`. Ends quietly when the body ends on a frame boundary. Every
 * whole message is told to `monitor` (a partial one is not: bytes alone do not keep a stream alive).
 *
 * @throws Error for a frame that fails its checksum or declares an impossible length, and for a body
 * that ends inside a frame (the caller reports these as a broken connection).
 */
export async function* decodeEventStream(
  body: AsyncIterable<Uint8Array>,
  codec: EventStreamCodec,
  monitor?: StreamMonitor,
): AsyncGenerator<EventStreamFrame> {
  // the bytes of a frame not whole yet, in the pieces they came in: joined once it is whole (a copy of
  // what was pending at each read was quadratic, 7 s for a 16 MiB frame in 4 KiB reads)
  const pieces: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (chunk.length === 0) continue;
    pieces.push(chunk);
    size += chunk.length;
    if (size < 4) continue;
    const next = frameLength(pieces);
    if (next < MINIMUM_FRAME || next > MAXIMUM_FRAME)
      throw new Error(`event stream frame declares ${next} bytes`);
    if (size < next) continue;
    const pending = joined(pieces, size);
    clearArray(pieces);
    size = 0;
    let offset = 0;
    while (pending.length - offset >= 4) {
      const view = new DataView(pending.buffer, pending.byteOffset + offset, pending.length - offset);
      const total = view.getUint32(0, false);
      if (total < MINIMUM_FRAME || total > MAXIMUM_FRAME) {
        throw new Error(`event stream frame declares ${total} bytes`);
      }
      if (pending.length - offset < total) break;
      monitor?.event();
      yield frameOf(codec, pending.subarray(offset, offset + total));
      offset += total;
    }
    if (offset < pending.length) {
      pieces.push(pending.subarray(offset));
      size = pending.length - offset;
    }
  }
  if (size > 0) throw new Error(`event stream ended inside a frame (${size} bytes left)`);
}
