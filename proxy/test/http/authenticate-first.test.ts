import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTER_KEY, startTestProxy, type TestProxy } from '../harness.js';
import { answerBeforeBody } from './answer-before-body.js';

describe('a request whose caller is not known yet', () => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy('pglite');
  }, 60_000);
  afterAll(() => t?.close());

  it('is refused 401 before its body is read, on model and management routes alike', async () => {
    for (const [path, headers] of [
      ['/v1/chat/completions', {}],
      ['/v1/chat/completions', { authorization: 'Bearer sk-not-a-key' }],
      ['/v1/messages', { 'x-api-key': 'sk-not-a-key' }],
      ['/key/generate', {}],
      ['/v1/audio/transcriptions', {}],
    ] as const) {
      expect(await answerBeforeBody(t.url, path, headers, 5_000_000)).toBe('HTTP/1.1 401 Unauthorized');
    }
  });

  it('answers a body sent to no route 404 before reading it', async () => {
    expect(await answerBeforeBody(t.url, '/nope', {}, 5_000_000)).toBe('HTTP/1.1 404 Not Found');
  });

  it('leaves GET and HEAD, whose bodies are never read, to their routes: a public one answers', async () => {
    const res = await fetch(`${t.url}/health`, { headers: { 'content-length': '0' } });
    expect(res.status).toBe(200);
  });

  it('closes the connection after an early answer, not reading on whatever the client sends', async () => {
    const { hostname, port } = new URL(t.url);
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100000000000\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    let closed = false;
    socket.on('close', () => {
      closed = true;
    });
    socket.on('error', () => undefined);
    const head = new Promise<string>((resolve) =>
      socket.once('data', (d: Buffer) => resolve(d.toString('latin1'))),
    );
    // a client that goes on sending: the gateway closes after its lingering bounds (64 MiB, 5 s)
    while (!closed && sent < 512 * 1024 * 1024) {
      if (!socket.write(chunk)) await Promise.race([once(socket, 'drain'), once(socket, 'close')]);
      sent += chunk.length;
    }
    expect(await head).toMatch(/^HTTP\/1.1 401[\s\S]*connection: close/i);
    expect(closed).toBe(true);
    expect(sent).toBeLessThan(256 * 1024 * 1024);
  });

  it('has its body read when its key is good, and answered once the body is whole', async () => {
    expect(
      await answerBeforeBody(
        t.url,
        '/v1/chat/completions',
        { authorization: `Bearer ${MASTER_KEY}` },
        5_000_000,
        300,
      ),
    ).toBeUndefined();
  });
});
