import { describe, expect, it } from 'vitest';
import { parseSse } from '../../src/providers/shared/sse.js';

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

  it('dispatches a final event with no trailing blank line', async () => {
    expect(await collect(['data: last'])).toEqual([{ event: undefined, data: 'last' }]);
  });
});
