import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SSE_EVENT_CHARS, parseSse, SseDecoder, type SseEvent } from '../../src/providers/shared/sse.js';

async function* bytes(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

async function collect(parts: string[]) {
  const out = [];
  for await (const event of parseSse(bytes(...parts))) out.push(event);
  return out;
}

describe('parseSse', () => {
  it('yields one event per blank-line-terminated block', async () => {
    expect(await collect(['data: a\n\ndata: b\n\n'])).toEqual([
      { event: undefined, data: 'a' },
      { event: undefined, data: 'b' },
    ]);
  });

  it('reassembles events split across reads, even inside a UTF-8 character', async () => {
    const text = 'data: {"t":"héllo"}\n\n';
    const encoded = new TextEncoder().encode(text);
    const cut = text.indexOf('é') + 1; // inside the two-byte é
    async function* split() {
      yield encoded.slice(0, cut);
      yield encoded.slice(cut);
    }
    const out = [];
    for await (const event of parseSse(split())) out.push(event);
    expect(out).toEqual([{ event: undefined, data: '{"t":"héllo"}' }]);
  });

  it('reads event names, joins multi-line data and skips comments', async () => {
    expect(await collect([': ping\n', 'event: message_start\r\ndata: one\r\ndata: two\r\n\r\n'])).toEqual([
      { event: 'message_start', data: 'one\ntwo' },
    ]);
  });

  it('reads one-line events whole in one read as line by line: a name before, no space, no value, two lines', async () => {
    const text = 'event: a\ndata: x\n\ndata:y\n\ndata: \n\ndata: one\ndata: two\n\n';
    const expected = [
      { event: 'a', data: 'x' },
      { event: undefined, data: 'y' },
      { event: undefined, data: '' },
      { event: undefined, data: 'one\ntwo' },
    ];
    expect(await collect([text])).toEqual(expected);
    expect(await collect([...text])).toEqual(expected);
  });

  it('dispatches a final event with no trailing blank line', async () => {
    expect(await collect(['data: last'])).toEqual([{ event: undefined, data: 'last' }]);
  });

  it('skips a byte-order mark at the start of the stream, even one split across reads', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    async function* split() {
      yield bom.slice(0, 1);
      yield new Uint8Array([...bom.slice(1), ...new TextEncoder().encode('data: a\n\n')]);
    }
    const out = [];
    for await (const event of parseSse(split())) out.push(event);
    expect(out).toEqual([{ event: undefined, data: 'a' }]);
  });

  it('ends a line split between its CR and LF once, and reads a field with no space or no value', async () => {
    expect(await collect(['data:x\r', '\ndata\r\n\r\n'])).toEqual([{ event: undefined, data: 'x\n' }]);
  });

  it('ignores fields it does not know (id, retry) and colons inside a value', async () => {
    expect(await collect(['id: 7\nretry: 10\nevent: a:b\ndata: {"k":"v:w"}\n\n'])).toEqual([
      { event: 'a:b', data: '{"k":"v:w"}' },
    ]);
  });

  it('hands out events that do not keep their read in memory', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // forty reads of a megabyte each, every one a long comment and one small event
    async function* reads(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 40; i++)
        yield Buffer.from(
          `: ${'x'.repeat(1_000_000)}\nevent: content_block_delta\ndata: {"usage":${i},"n":"abcdef"}\n\n`,
        );
    }
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept: string[] = [];
    for await (const event of parseSse(reads())) kept.push(event.data, event.event!);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(kept).toHaveLength(80);
    expect(kept.slice(-2)).toEqual(['{"usage":39,"n":"abcdef"}', 'content_block_delta']);
    expect(grown).toBeLessThan(8 * 1024 * 1024);
  });
});

describe('SseDecoder', () => {
  it('refuses an event larger than the limit before it ends', () => {
    const decoder = new SseDecoder();
    const out: SseEvent[] = [];
    const piece = Buffer.alloc(1024 * 1024, 0x61);
    decoder.push(Buffer.from('data: '), out);
    expect(() => {
      for (let i = 0; i <= MAX_SSE_EVENT_CHARS / piece.length; i++) decoder.push(piece, out);
    }).toThrow(/exceeded/);
    expect(out).toEqual([]);
  });

  it('refuses an event of empty data lines past the limit: each line counts the line end it joins with', () => {
    const decoder = new SseDecoder(1000);
    const out: SseEvent[] = [];
    decoder.push(Buffer.from('data:\n'.repeat(1000)), out);
    expect(() => decoder.push(Buffer.from('data:\n'), out)).toThrow(/exceeded 1000 characters/);
    expect(out).toEqual([]);
  });

  it('decodes a stream cut into reads anywhere as it decodes the whole (inside characters, CR LF pairs, long lines)', () => {
    const decodeAll = (parts: Uint8Array[]): SseEvent[] => {
      const decoder = new SseDecoder();
      const out: SseEvent[] = [];
      for (const part of parts) decoder.push(part, out);
      decoder.end(out);
      return out;
    };
    const line = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', ':', ' ', '{', '"') }).map((v) => `data: ${v}`),
      fc.constantFrom('data:', 'data', 'event: delta', ': keep-alive', 'id: 1', ''),
    );
    const text = fc
      .tuple(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
      .map(([lines, eol, bom]) => `${bom ? '\uFEFF' : ''}${lines.join(eol)}${eol}`);
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 8 }), (source, cuts) => {
        const bytes = Buffer.from(source);
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const parts = [...at, bytes.length].map((end, i) => bytes.subarray(i === 0 ? 0 : at[i - 1], end));
        expect(decodeAll(parts)).toEqual(decodeAll([bytes]));
      }),
      { seed: 20_261_128, numRuns: 400 },
    );
  });

  it('reads a line longer than a read, in many reads, as one value', () => {
    const decoder = new SseDecoder();
    const out: SseEvent[] = [];
    decoder.push(Buffer.from('data: '), out);
    for (let i = 0; i < 100; i++) decoder.push(Buffer.from('x'.repeat(1000)), out);
    decoder.push(Buffer.from('\n\ndata: next\n\n'), out);
    expect(out.map((e) => e.data)).toEqual(['x'.repeat(100_000), 'next']);
  });

  it('holds a line that trickles in two bytes a read in about its own size', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const decoder = new SseDecoder();
    const out: SseEvent[] = [];
    const read = Buffer.from('xy');
    gc();
    const before = process.memoryUsage().heapUsed;
    decoder.push(Buffer.from('data: '), out);
    for (let i = 0; i < 500_000; i++) decoder.push(read, out);
    gc();
    // a million characters held: 1 MB as text (1.1 MB in all here); each read's piece kept apart: 16 MB
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(2 * 1024 * 1024);
    decoder.push(Buffer.from('\n\n'), out);
    expect(out).toEqual([{ event: undefined, data: 'xy'.repeat(500_000) }]);
  });
});
