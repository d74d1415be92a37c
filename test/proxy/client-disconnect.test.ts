import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestProxy, type TestProxy } from './harness.js';

// An upstream that starts a stream, then sends nothing more, and records when its client goes away.
function silentStreamUpstream(): Promise<{ server: Server; url: string; closed: () => number }> {
  let closed = 0;
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4o',
      choices: [{ index: 0, delta: { role: 'assistant', content: 'first' }, finish_reason: null }],
    };
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    res.on('close', () => {
      closed += 1;
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        closed: () => closed,
      }),
    ),
  );
}

describe('a client that goes away mid-stream', () => {
  let t: TestProxy;
  let upstream: Awaited<ReturnType<typeof silentStreamUpstream>>;
  beforeAll(async () => {
    upstream = await silentStreamUpstream();
    t = await startTestProxy('pglite', {
      models: () => [
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
      ],
      // the upstream is read on after the client leaves, for the answer's usage: briefly here
      general_settings: { disconnect_read_timeout: 0.05 },
    });
  });
  afterAll(async () => {
    await t.close();
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

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
