import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, MASTER_KEY, mockDeployment, startTestProxy, type TestProxy } from './harness.js';
import { postThenAbort, sendThenLeave } from './leaving-client.js';
import { client } from './management/client.js';

/**
 * A local upstream answering with `answer`, which calls `gone` when its client goes away; counts
 * those, and the requests it received.
 */
function countingUpstream(
  answer: (req: IncomingMessage, res: ServerResponse, gone: () => void) => void,
): Promise<{ server: Server; url: string; closed: () => number; received: () => number }> {
  let closed = 0;
  let received = 0;
  const server = createServer((req, res) => {
    received += 1;
    req.resume();
    answer(req, res, () => {
      closed += 1;
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        closed: () => closed,
        received: () => received,
      }),
    ),
  );
}

// An upstream that starts a stream, then sends nothing more.
const silentStreamUpstream = () =>
  countingUpstream((_req, res, gone) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4o',
      choices: [{ index: 0, delta: { role: 'assistant', content: 'first' }, finish_reason: null }],
    };
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    res.on('close', gone);
  });

// An upstream that never answers.
const hangingUpstream = () => countingUpstream((req, _res, gone) => req.socket.on('close', gone));

let t: TestProxy;
let upstream: Awaited<ReturnType<typeof silentStreamUpstream>>;
let hanging: Awaited<ReturnType<typeof hangingUpstream>>;
beforeAll(async () => {
  upstream = await silentStreamUpstream();
  hanging = await hangingUpstream();
  t = await startTestProxy('pglite', {
    models: (mock) => [
      {
        model_name: 'gpt-4o',
        svc_params: {
          model: 'openai/gpt-4o',
          api_base: `${upstream.url}/v1`,
          api_key: 'sk-up-0000',
          stream_timeout: 30,
        },
        model_info: { id: 'silent' },
      },
      mockDeployment(mock, 'one-slot', 'one-slot', { max_parallel_requests: 1, stream_timeout: 0.5 }),
      {
        model_name: 'hanging',
        svc_params: {
          model: 'openai/gpt-4o',
          api_base: `${hanging.url}/v1`,
          api_key: 'sk-up-0000',
          timeout: 30,
        },
        model_info: { id: 'hanging' },
      },
    ],
    // the upstream is read on after the client leaves, for the answer's usage: briefly here
    general_settings: {
      disconnect_read_timeout: 0.05,
      send_timeout: 1,
      pass_through_endpoints: [{ path: '/hanging', target: `${hanging.url}/pt` }],
    },
  });
});
afterAll(async () => {
  await t.close();
  for (const { server } of [upstream, hanging]) {
    server.closeAllConnections();
    server.close();
  }
});

describe('a client that goes away before any answer', () => {
  /** Sends a request, then leaves once the upstream has it. */
  async function leaveWhileWaiting(path: string, body: unknown, headers: Record<string, string>) {
    const before = hanging.closed();
    const received = hanging.received();
    await postThenAbort(`${t.url}${path}`, headers, body, () =>
      eventually(() => expect(hanging.received()).toBe(received + 1)),
    );
    await eventually(() => expect(hanging.closed()).toBe(before + 1));
  }

  it('cancels the upstream request of a model call at once', async () => {
    await leaveWhileWaiting(
      '/v1/chat/completions',
      { model: 'hanging', messages: [{ role: 'user', content: 'hi' }] },
      t.admin,
    );
  });

  it('cancels the upstream request of a pass-through call at once', async () => {
    const generated = await fetch(`${t.url}/key/generate`, {
      method: 'POST',
      headers: { ...t.admin, 'content-type': 'application/json' },
      body: '{}',
    });
    const { key } = (await generated.json()) as { key: string };
    await leaveWhileWaiting('/hanging/v1/anything', { model: 'gpt-4o' }, { authorization: `Bearer ${key}` });
  });
});

describe('a client that goes away before its call is admitted', () => {
  it('is charged nothing', async () => {
    const { key, keyHash } = await client(() => t).newKey();
    const before = hanging.received();
    // gone before the proxy has looked the new key up: the call is dropped before its body is
    // parsed, or cancelled and recorded as closed by the client, whichever the close reaches first
    await sendThenLeave(
      t.url,
      'POST',
      '/v1/chat/completions',
      { authorization: `Bearer ${key}` },
      { model: 'hanging', messages: [{ role: 'user', content: 'hi' }] },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const rows = (await (
      await fetch(`${t.url}/spend/logs?key=${keyHash}`, { headers: t.admin })
    ).json()) as Array<Record<string, unknown>>;
    // when the close reached the proxy after it had forwarded the call, the upstream had the
    // prompt, and it is charged (spend/charged-answers.test.ts)
    const forwarded = hanging.received() > before;
    for (const row of rows)
      expect(row).toMatchObject({
        error_code: 'client_closed',
        http_status: 499,
        ...(forwarded ? {} : { cost: 0 }),
      });
  });
});

describe('a client that goes away mid-stream', () => {
  it('cancels the upstream request once it has read on for disconnect_read_timeout, and logs the call as closed by the client', async () => {
    const controller = new AbortController();
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...t.admin, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true }),
      signal: controller.signal,
    });
    const callId = res.headers.get('x-svc-call-id');
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('first');
    controller.abort();
    await eventually(() => expect(upstream.closed()).toBe(1));
    await eventually(async () => {
      const rows = (await (await fetch(`${t.url}/spend/logs`, { headers: t.admin })).json()) as Array<
        Record<string, unknown>
      >;
      expect(rows.find((r) => r.call_id === callId)).toMatchObject({
        status: 'failure',
        error_code: 'client_closed',
        http_status: 499,
        usage_estimated: true,
      });
    }, 10_000); // the first counted answer loads the tokenizer
  });
});

const SSE = { 'content-type': 'text/event-stream' };

/** About 6 MB of answer, in 100 kB chunks: more than the sockets between the proxy and a client buffer. */
function bigStream(): string[] {
  const frame = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const text = frame({ content: 'x'.repeat(100_000) }, null);
  return [...Array.from({ length: 60 }, () => text), frame({}, 'stop'), 'data: [DONE]\n\n'];
}

/**
 * Asks for a stream on a raw socket, waits for its first bytes, then stops reading: the proxy's writes
 * fill the socket's buffers and it stops pulling the stream (backpressure).
 */
async function streamNobodyReads(url: string, model: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], stream: true });
  socket.write(
    `POST /v1/chat/completions HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: Bearer ${MASTER_KEY}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  const [first] = (await once(socket, 'data')) as [Buffer];
  socket.pause();
  return { head: first.toString('latin1'), socket };
}

describe('a client that stops reading mid-stream', () => {
  it('has its connection closed after send_timeout, its call recorded as closed by the client', async () => {
    t.mock.setBehavior('/one-slot', { raw: { headers: SSE, body: bigStream() } });
    const { head, socket } = await streamNobodyReads(t.url, 'one-slot');
    const callId = /x-svc-call-id: *([^\r\n]+)/i.exec(head)?.[1];
    try {
      await eventually(async () => {
        const rows = (await (await fetch(`${t.url}/spend/logs`, { headers: t.admin })).json()) as Array<
          Record<string, unknown>
        >;
        expect(rows.find((r) => r.call_id === callId)).toMatchObject({
          error_code: 'client_closed',
          http_status: 499,
        });
      }, 10_000);
    } finally {
      socket.destroy();
      t.mock.setBehavior('/one-slot', { content: 'ok' });
    }
  });

  it("gives the deployment's slot back after stream_timeout, counting nothing against it", async () => {
    t.mock.setBehavior('/one-slot', { raw: { headers: SSE, body: bigStream() } });
    const { head, socket } = await streamNobodyReads(t.url, 'one-slot');
    expect(head).toMatch(/^HTTP\/1.1 200/);
    t.mock.setBehavior('/one-slot', { content: 'served' });
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...t.admin, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'one-slot', messages: [{ role: 'user', content: 'hi' }], timeout: 5 }),
    });
    socket.destroy();
    expect(res.status).toBe(200);
    expect(t.proxy.router.getDeployments().find((d) => d.model_id === 'one-slot')).toMatchObject({
      state: 'ok',
      failures_this_minute: 0,
    });
  });
});
