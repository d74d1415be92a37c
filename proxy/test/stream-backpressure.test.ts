import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled, startFloodingUpstream, until } from '../../test/support/flooding-upstream.js';
import { MASTER_KEY, startTestProxy, type TestProxy } from './harness.js';

/** 64 MB: far more than any socket or stream buffer holds. */
const TOTAL_BYTES = 64 * 1024 * 1024;
/** What the sockets and buffers between the upstream and a client that stopped reading may hold. */
const BOUND_BYTES = 24 * 1024 * 1024;

let t: TestProxy;
let upstream: Awaited<ReturnType<typeof startFloodingUpstream>>;
beforeAll(async () => {
  upstream = await startFloodingUpstream(TOTAL_BYTES);
  t = await startTestProxy('pglite', {
    models: () => [
      {
        model_name: 'flood',
        svc_params: { model: 'openai/gpt-4o', api_base: `${upstream.url}/v1`, api_key: 'sk-up-0000' },
      },
    ],
    general_settings: { disconnect_read_timeout: 0.05 },
  });
});
afterAll(async () => {
  await t.close();
  upstream.close();
});

describe('a streamed answer to a client that does not read', () => {
  it('holds the upstream read: the upstream is blocked, the proxy buffers a bounded amount', async () => {
    const { hostname, port } = new URL(t.url);
    const socket = connect(Number(port), hostname);
    // the client sends its request, then never reads the answer
    socket.pause();
    const body = JSON.stringify({
      model: 'flood',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: Bearer ${MASTER_KEY}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await until(() => upstream.seen.blocked);
    // the upstream comes to a stop (however slowly the buffers on the way fill on a busy machine)
    const held = await settled(() => upstream.seen.written);
    expect(held).toBeLessThan(BOUND_BYTES);
    // the client leaves: the upstream call is cancelled once the read-on bound is reached
    socket.destroy();
    await until(() => upstream.seen.closed);
  });
});
