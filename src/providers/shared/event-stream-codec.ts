import { crc32 } from 'node:zlib';

/**
 * One message of the binary AWS event stream (`application/vnd.amazon.eventstream`): its string headers
 * (`:event-type`, `:message-type`, ...) and its payload bytes.
 */
export interface EventStreamMessage {
  headers: Record<string, string>;
  payload: Uint8Array;
}

// total length, headers length, prelude CRC; then headers, payload, message CRC
const PRELUDE = 12;
const TRAILER = 4;
const STRING = 7;
const BYTE_ARRAY = 6;

/** Bytes of a header value of each fixed-size type (0 and 1 are the booleans, which have none). */
const FIXED_SIZE: Readonly<Record<number, number>> = { 0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16 };

const utf8 = new TextDecoder('utf-8', { fatal: false });

function headersOf(view: DataView, bytes: Uint8Array, start: number, end: number): Record<string, string> {
  const headers: Record<string, string> = {};
  let at = start;
  while (at < end) {
    const nameLength = view.getUint8(at);
    const name = utf8.decode(bytes.subarray(at + 1, at + 1 + nameLength));
    at += 1 + nameLength;
    const type = view.getUint8(at);
    at += 1;
    if (type === STRING || type === BYTE_ARRAY) {
      const length = view.getUint16(at, false);
      if (type === STRING) headers[name] = utf8.decode(bytes.subarray(at + 2, at + 2 + length));
      at += 2 + length;
    } else {
      const size = FIXED_SIZE[type];
      if (size === undefined) throw new Error(`event stream header ${name} has unknown type ${type}`);
      at += size; // only string headers matter to Bedrock; the others are skipped
    }
  }
  if (at !== end) throw new Error('event stream headers overrun their declared length');
  return headers;
}

/**
 * Decodes one whole message (exactly `total length` bytes), checking both CRC32 checksums. Headers of
 * other types than string are skipped.
 *
 * @throws Error for a checksum mismatch or lengths that do not add up (a corrupt frame).
 */
export function decodeEventStreamMessage(bytes: Uint8Array): EventStreamMessage {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const total = view.getUint32(0, false);
  const headersLength = view.getUint32(4, false);
  if (total !== bytes.byteLength || PRELUDE + headersLength + TRAILER > total)
    throw new Error(
      `event stream frame of ${bytes.byteLength} bytes declares ${total} (${headersLength} of headers)`,
    );
  if (crc32(bytes.subarray(0, 8)) !== view.getUint32(8, false))
    throw new Error('event stream frame fails its prelude checksum');
  if (crc32(bytes.subarray(0, total - TRAILER)) !== view.getUint32(total - TRAILER, false))
    throw new Error('event stream frame fails its message checksum');
  const headersEnd = PRELUDE + headersLength;
  return {
    headers: headersOf(view, bytes, PRELUDE, headersEnd),
    payload: bytes.subarray(headersEnd, total - TRAILER),
  };
}

/** Encodes one message with string headers, the way AWS sends them (for the mock provider and tests). */
export function encodeEventStreamMessage(message: EventStreamMessage): Uint8Array {
  const encoder = new TextEncoder();
  const parts = Object.entries(message.headers).map(([name, value]) => {
    const n = encoder.encode(name);
    const v = encoder.encode(value);
    const part = new Uint8Array(1 + n.length + 1 + 2 + v.length);
    const view = new DataView(part.buffer);
    view.setUint8(0, n.length);
    part.set(n, 1);
    view.setUint8(1 + n.length, STRING);
    view.setUint16(2 + n.length, v.length, false);
    part.set(v, 4 + n.length);
    return part;
  });
  const headersLength = parts.reduce((sum, p) => sum + p.length, 0);
  const total = PRELUDE + headersLength + message.payload.length + TRAILER;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total, false);
  view.setUint32(4, headersLength, false);
  view.setUint32(8, crc32(out.subarray(0, 8)), false);
  let at = PRELUDE;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  out.set(message.payload, at);
  view.setUint32(total - TRAILER, crc32(out.subarray(0, total - TRAILER)), false);
  return out;
}
