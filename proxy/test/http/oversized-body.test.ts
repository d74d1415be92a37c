import { once } from 'node:events';
import { type AddressInfo, connect } from 'node:net';
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lingerOnEarlyAnswers } from '../../src/http/lingering-close.js';
import { MASTER_KEY, startTestProxy, type TestProxy } from '../harness.js';

/**
 * What a client writing an oversized body 64 kB at a time received before its connection closed; the
 * client runs in a thread of its own, as a separate process would, so that it is still writing while
 * the gateway answers.
 */
async function postOversized(url: string, bytes: number): Promise<string> {
  const worker = new Worker(new URL('./oversized-client.mjs', import.meta.url), {
    workerData: { url, bytes, authorization: `Bearer ${MASTER_KEY}` },
  });
  const [received] = (await once(worker, 'message')) as [string];
  await worker.terminate();
  return received;
}

describe('a request body over max_request_body_mb, over a real socket', () => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy('pglite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('is answered 413 request_too_large every time, never a reset, while the client still sends', async () => {
    for (let i = 0; i < 5; i++) {
      const answer = await postOversized(t.url, 11 * 1024 * 1024);
      expect(answer.slice(0, 12)).toBe('HTTP/1.1 413');
      expect(answer).toContain('"code":"request_too_large"');
    }
  });

  it('serves the next call on a new connection', async () => {
    await postOversized(t.url, 11 * 1024 * 1024);
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
  });
});

/** Starts a bare app with `bounds`, sends it an endless body (half-open, 16 kB every 5 ms); the answer and the ms to the close. */
async function endlessBody(bounds: { ms: number; bytes: number }): Promise<{ received: string; ms: number }> {
  const app = Fastify({ bodyLimit: 1024 });
  lingerOnEarlyAnswers(app, bounds);
  app.post('/', async () => 'never');
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  // half-open: it goes on sending after the gateway's FIN
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => {
    received += d;
  });
  socket.on('error', () => undefined);
  socket.write(
    'POST / HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\ncontent-length: 1000000000\r\n\r\n',
  );
  const piece = Buffer.alloc(16_384, 'x');
  const writer = setInterval(() => socket.writable && socket.write(piece), 5);
  const started = performance.now();
  // the reset that ends it comes as an error first
  await new Promise((resolve) => socket.on('close', resolve));
  clearInterval(writer);
  const ms = performance.now() - started;
  await app.close();
  return { received, ms };
}

describe('the lingering close after an early answer', () => {
  it('closes the connection of a client that never stops sending once the time bound runs out', async () => {
    const { received, ms } = await endlessBody({ ms: 200, bytes: 1024 * 1024 * 1024 });
    expect(received.slice(0, 12)).toBe('HTTP/1.1 413');
    expect(ms).toBeGreaterThan(150);
    expect(ms).toBeLessThan(2_000);
  });

  it('closes it once the byte bound runs out, before the time bound', async () => {
    const { received, ms } = await endlessBody({ ms: 10_000, bytes: 256 * 1024 });
    expect(received.slice(0, 12)).toBe('HTTP/1.1 413');
    expect(ms).toBeLessThan(2_000);
  });
});
