import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { type ByteStream, HIGH_WATER_BYTES } from '../../src/providers/shared/streamed-response.js';
import { type Route, type RouteServer, startRouteServer } from '../support/route-server.js';

const PIECE = 'x'.repeat(16 * 1024);
const PIECES = 64; // 1 MiB: far more than the high-water mark

const routes: Record<string, Route> = {
  '/stream': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let i = 0; i < PIECES; i++) res.write(PIECE);
    res.end();
  },
  '/error-long': (_req, res) => {
    res.writeHead(429, { 'retry-after': '3' });
    res.end('e'.repeat(1000));
  },
  '/error-cut': (_req, res) => {
    res.writeHead(503, { 'content-length': 1000 });
    res.write('{"error":');
    setTimeout(() => res.socket?.destroy(), 5);
  },
  '/cut': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: 1\n\n');
    setTimeout(() => res.socket?.destroy(), 5);
  },
};

let routeServer: RouteServer;
let base: string;
const http = new HttpClient();
beforeAll(async () => {
  routeServer = await startRouteServer(routes);
  base = routeServer.base;
});
afterAll(async () => {
  await http.close();
  routeServer.close();
});

const send = (path: string, maxErrorBodyBytes = 64 * 1024) =>
  http.sendStreaming(
    { url: `${base}${path}`, method: 'GET', headers: {} },
    { headersTimeoutMs: 5000, bodyTimeoutMs: 5000, maxErrorBodyBytes },
  );

/** Reads a body to its end or failure: its bytes, and the failure if one came. */
async function drain(body: ByteStream, pauseFirstMs = 0): Promise<{ bytes: number; error: unknown }> {
  if (pauseFirstMs) await new Promise((resolve) => setTimeout(resolve, pauseFirstMs));
  let bytes = 0;
  for (;;) {
    for (let piece = body.read(); piece !== null; piece = body.read()) bytes += piece.length;
    if (body.error !== undefined || body.ended) return { bytes, error: body.error };
    await new Promise<void>((resolve) => body.onWake(resolve));
  }
}

describe('HttpClient.sendStreaming', () => {
  it('hands every byte of a long body to a reader who starts late, holding the socket meanwhile', async () => {
    const { statusCode, body } = await send('/stream');
    expect(statusCode).toBe(200);
    expect(await drain(body!, 50)).toEqual({ bytes: PIECES * PIECE.length, error: undefined });
    expect(HIGH_WATER_BYTES).toBeLessThan(PIECES * PIECE.length);
  });

  it('hands what arrived while the reader was away over in one read, no more than the high-water mark and a piece', async () => {
    const { body } = await send('/stream');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const first = body!.read()!;
    expect(first.length).toBeGreaterThan(PIECE.length);
    expect(first.length).toBeLessThanOrEqual(HIGH_WATER_BYTES + PIECE.length);
    expect(first.toString('latin1')).toBe('x'.repeat(first.length));
    const rest = await drain(body!);
    expect(first.length + rest.bytes).toBe(PIECES * PIECE.length);
  });

  it('reads an error status body up to its limit, and answers the status', async () => {
    const answer = await send('/error-long', 100);
    expect(answer.statusCode).toBe(429);
    expect(answer.headers['retry-after']).toBe('3');
    expect(answer.errorBody?.toString()).toBe('e'.repeat(100));
  });

  it('answers an error status whose body is cut with what came of it', async () => {
    const answer = await send('/error-cut');
    expect(answer.statusCode).toBe(503);
    expect(answer.errorBody?.toString()).toBe('{"error":');
  });

  it('gives the failure of a body cut after its headers to the reader, and tells who listens once', async () => {
    const { body } = await send('/cut');
    let closedEarly = 0;
    body!.onClosedEarly(() => closedEarly++);
    const { bytes, error } = await drain(body!);
    expect(bytes).toBe('data: 1\n\n'.length);
    expect(error).toBeInstanceOf(Error);
    expect(closedEarly).toBe(1);
  });

  it('tells a listener at once when the body closed early before it listened', async () => {
    const { body } = await send('/cut');
    await drain(body!);
    let closedEarly = 0;
    body!.onClosedEarly(() => closedEarly++);
    expect(closedEarly).toBe(1);
  });
});
