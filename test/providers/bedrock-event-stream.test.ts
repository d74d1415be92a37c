import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import { decodeEventStream } from '../../src/providers/bedrock/event-stream.js';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

const frame = (payload: Uint8Array) =>
  codec.encode({
    headers: {
      ':message-type': { type: 'string', value: 'event' },
      ':event-type': { type: 'string', value: 'contentBlockDelta' },
    },
    body: payload,
  });

async function* reads(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function decodeAll(body: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const payloads: Uint8Array[] = [];
  for await (const decoded of decodeEventStream(body, codec)) payloads.push(decoded.payload);
  return payloads;
}

describe('decodeEventStream', () => {
  it('reads a 15 MiB frame that arrives in 4 KiB reads in linear time', async () => {
    const payload = new Uint8Array(15 * 1024 * 1024).fill(0x61);
    const start = performance.now();
    const payloads = await decodeAll(reads(frame(payload), 4096));
    expect(performance.now() - start).toBeLessThan(2000); // a copy of what was pending at each read: 7 s
    expect(payloads.map((p) => p.length)).toEqual([payload.length]);
  });

  it('reads frames cut anywhere, a byte at a time included, as it reads them whole', async () => {
    const text = ['{"a":1}', '{"b":"two"}', '{}'].map((t) => frame(fromUtf8(t)));
    const whole = new Uint8Array(text.reduce((n, f) => n + f.length, 0));
    let at = 0;
    for (const f of text) {
      whole.set(f, at);
      at += f.length;
    }
    const expected = ['{"a":1}', '{"b":"two"}', '{}'];
    for (const size of [1, 3, 7, 50, whole.length]) {
      expect((await decodeAll(reads(whole, size))).map((p) => toUtf8(p))).toEqual(expected);
    }
  });

  it('refuses a body that ends inside a frame', async () => {
    const bytes = frame(fromUtf8('{"a":1}'));
    await expect(decodeAll(reads(bytes.subarray(0, bytes.length - 1), 5))).rejects.toThrow(
      /ended inside a frame \(\d+ bytes left\)/,
    );
  });
});
