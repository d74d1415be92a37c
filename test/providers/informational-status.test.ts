import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitError, Router } from '../../src/index.js';
import { USER } from '../helpers.js';

// an upstream that sends 103 Early Hints before its real answer, a 429
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeEarlyHints({ link: '</hints>; rel=preload' });
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
      res.end(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit_error', code: null } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const router = () =>
  new Router(
    [
      {
        model_name: 'gpt-4o',
        svc_params: { model: 'openai/gpt-4o', api_base: url, api_key: 'sk-test-0000' },
      },
    ],
    { num_retries: 0 },
  );

describe('an informational answer (103) before the real one', () => {
  it('is passed over by a streamed call, which fails with the real status', async () => {
    const r = router();
    const error = await r.acompletion({ model: 'gpt-4o', messages: USER, stream: true }).catch((e) => e);
    await r.close();
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toContain('slow down');
  });

  it('is passed over by a plain call, which fails with the real status', async () => {
    const r = router();
    const error = await r.acompletion({ model: 'gpt-4o', messages: USER }).catch((e) => e);
    await r.close();
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toContain('slow down');
  });
});
