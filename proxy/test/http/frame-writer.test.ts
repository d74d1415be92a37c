import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { FrameWriter, SSE_HEADERS, sseHeaders } from '../../src/http/sse.js';

/** Serves one response written by `write`, and returns the raw bytes a client received. */
async function rawResponse(write: (res: ServerResponse) => void | Promise<void>): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    void write(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  socket.write('GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
  let text = '';
  for await (const chunk of socket) text += String(chunk);
  await new Promise((resolve) => server.close(resolve));
  return text;
}

/** The chunks of a chunked body, in order. */
function chunksOf(response: string): string[] {
  let body = response.slice(response.indexOf('\r\n\r\n') + 4);
  const chunks: string[] = [];
  for (;;) {
    const eol = body.indexOf('\r\n');
    const size = Number.parseInt(body.slice(0, eol), 16);
    if (!size) return chunks;
    chunks.push(body.slice(eol + 2, eol + 2 + size));
    body = body.slice(eol + 2 + size + 2);
  }
}

describe('FrameWriter', () => {
  it('sends the frames written in one turn as one chunk of the response', async () => {
    const response = await rawResponse((res) => {
      const writer = new FrameWriter(res);
      writer.write('data: 1\n\n');
      writer.write('data: 2\n\n');
      writer.write('data: 3\n\n');
      setTimeout(() => writer.end(), 5);
    });
    expect(chunksOf(response)).toEqual(['data: 1\n\ndata: 2\n\ndata: 3\n\n']);
  });

  it('sends frames of different turns as chunks of their own', async () => {
    const response = await rawResponse(async (res) => {
      const writer = new FrameWriter(res);
      writer.write('data: 1\n\n');
      await new Promise((resolve) => setTimeout(resolve, 5));
      writer.write('data: 2\n\n');
      await new Promise((resolve) => setTimeout(resolve, 5));
      writer.end();
    });
    expect(chunksOf(response)).toEqual(['data: 1\n\n', 'data: 2\n\n']);
  });

  it('writes the frames still queued when the response ends', async () => {
    const response = await rawResponse((res) => {
      const writer = new FrameWriter(res);
      writer.write('data: last\n\n');
      writer.end();
    });
    expect(chunksOf(response)).toEqual(['data: last\n\n']);
  });

  it('answers false once the response has ended, and writes nothing more', async () => {
    let after: boolean | Promise<boolean> = true;
    const response = await rawResponse((res) => {
      const writer = new FrameWriter(res);
      writer.end();
      after = writer.write('data: late\n\n');
    });
    expect(after).toBe(false);
    expect(chunksOf(response)).toEqual([]);
  });
});

describe('sseHeaders', () => {
  it("carries every header of SSE_HEADERS and the call's own", () => {
    expect(sseHeaders('call-1', '0.42')).toEqual({
      ...SSE_HEADERS,
      'x-svc-call-id': 'call-1',
      'x-svc-overhead-ms': '0.42',
    });
  });
});
