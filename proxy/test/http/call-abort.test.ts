import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { CallAbort } from '../../src/http/call-abort.js';

/**
 * A response whose client sent a request and left: resolved once Node has closed it (the 'close'
 * event is over, as for a call whose client left while it was authenticated).
 */
async function responseOfClientThatLeft(): Promise<{ res: ServerResponse; done: () => void }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1', () =>
    socket.write('GET / HTTP/1.1\r\nhost: x\r\n\r\n', () => socket.destroy()),
  );
  const [, res] = (await once(server, 'request')) as [unknown, ServerResponse];
  if (!res.closed) await once(res, 'close');
  return { res, done: () => server.close() };
}

describe('CallAbort', () => {
  it('takes a client that left before the call was set up as gone, its upstream cancelled', async () => {
    const { res, done } = await responseOfClientThatLeft();
    try {
      const abort = new CallAbort({ raw: res } as FastifyReply);
      expect([abort.gone, abort.upstream.aborted]).toEqual([true, true]);
      let told = 0;
      abort.whenGone(() => told++);
      expect(told).toBe(1);
    } finally {
      done();
    }
  });
});
