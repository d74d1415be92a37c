import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import {
  decodeEventStreamMessage,
  encodeEventStreamMessage,
} from '../../src/providers/shared/event-stream-codec.js';

// The AWS SDK's own codec (a dev dependency only) is the reference both ways.
const reference = new EventStreamCodec(toUtf8, fromUtf8);
const payload = fromUtf8(JSON.stringify({ delta: { text: 'Hello, wörld 👋' }, p: 'abcd' }));

describe('the AWS event-stream codec', () => {
  it('encodes a message the AWS SDK decodes to the same headers and payload', () => {
    const headers = { ':event-type': 'contentBlockDelta', ':message-type': 'event', 'x-ünïcode': 'välue' };
    const decoded = reference.decode(encodeEventStreamMessage({ headers, payload }));
    expect(decoded.headers).toEqual({
      ':event-type': { type: 'string', value: 'contentBlockDelta' },
      ':message-type': { type: 'string', value: 'event' },
      'x-ünïcode': { type: 'string', value: 'välue' },
    });
    expect(toUtf8(decoded.body)).toBe(toUtf8(payload));
  });

  it('decodes what the AWS SDK encodes, keeping string headers and skipping every other type', () => {
    const bytes = reference.encode({
      headers: {
        ':event-type': { type: 'string', value: 'messageStop' },
        yes: { type: 'boolean', value: true },
        no: { type: 'boolean', value: false },
        b: { type: 'byte', value: 7 },
        s: { type: 'short', value: 300 },
        i: { type: 'integer', value: 70_000 },
        bin: { type: 'binary', value: new Uint8Array([1, 2, 3]) },
        at: { type: 'timestamp', value: new Date(0) },
        id: { type: 'uuid', value: '6ba7b810-9dad-11d1-80b4-00c04fd430c8' },
        ':message-type': { type: 'string', value: 'event' },
      },
      body: payload,
    });
    const message = decodeEventStreamMessage(bytes);
    expect(message.headers).toEqual({ ':event-type': 'messageStop', ':message-type': 'event' });
    expect(toUtf8(message.payload)).toBe(toUtf8(payload));
  });

  it('rejects a frame whose payload was altered (message checksum)', () => {
    const bytes = encodeEventStreamMessage({ headers: { ':message-type': 'event' }, payload });
    bytes[bytes.length - 6] = (bytes[bytes.length - 6] ?? 0) ^ 1;
    expect(() => decodeEventStreamMessage(bytes)).toThrow('event stream frame fails its message checksum');
  });

  it('rejects a frame whose declared lengths were altered (prelude checksum)', () => {
    const bytes = encodeEventStreamMessage({ headers: { ':message-type': 'event' }, payload });
    bytes[7] = (bytes[7] ?? 0) + 1; // headers length
    expect(() => decodeEventStreamMessage(bytes)).toThrow('event stream frame fails its prelude checksum');
  });

  it('rejects bytes that are not exactly one frame', () => {
    const bytes = encodeEventStreamMessage({ headers: {}, payload });
    expect(() => decodeEventStreamMessage(bytes.subarray(0, bytes.length - 1))).toThrow(/declares/);
  });
});
