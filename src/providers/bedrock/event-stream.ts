import type { EventStreamCodec, EventStreamMessage } from '../../peers/eventstream-codec.js';
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

function joined(head: Uint8Array, tail: Uint8Array): Uint8Array {
  if (head.length === 0) return tail;
  const out = new Uint8Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
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
  let pending: Uint8Array = new Uint8Array(0);
  for await (const chunk of body) {
    pending = joined(pending, chunk);
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
    pending = pending.subarray(offset);
  }
  if (pending.length > 0) throw new Error(`event stream ended inside a frame (${pending.length} bytes left)`);
}
