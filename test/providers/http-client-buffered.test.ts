import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AbortSource,
  type AbortTarget,
  BodyReadError,
  BodyTooLargeError,
} from '../../src/providers/shared/buffered-response.js';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { type Route, type RouteServer, startRouteServer } from '../support/route-server.js';

const routes: Record<string, Route> = {
  '/json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
  // no content-length: the body comes in pieces
  '/chunked': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-part': 'two' });
    res.write('{"a":');
    setTimeout(() => res.end('1}'), 5);
  },
  '/big': (_req, res) => res.writeHead(200, { 'content-length': 1000 }).end('x'.repeat(1000)),
  '/big-chunked': (_req, res) => {
    res.writeHead(200);
    res.write('x'.repeat(600));
    setTimeout(() => res.end('x'.repeat(600)), 5);
  },
  '/error': (_req, res) => {
    res.writeHead(500, { 'retry-after': '3' });
    res.write('e'.repeat(300));
    setTimeout(() => res.end('e'.repeat(300)), 5);
  },
  '/cut': (_req, res) => {
    res.writeHead(200, { 'content-length': 100 });
    res.write('{"half":');
    setTimeout(() => res.socket?.destroy(), 5);
  },
  '/hang': () => {},
};

let routeServer: RouteServer;
let base: string;
beforeAll(async () => {
  routeServer = await startRouteServer(routes);
  base = routeServer.base;
});
afterAll(() => routeServer.close());

const LIMITS = { headersTimeoutMs: 5000, bodyTimeoutMs: 5000, maxBodyBytes: 800, maxErrorBodyBytes: 400 };

async function send(
  path: string,
  options: Partial<typeof LIMITS> & { signal?: AbortSignal } = {},
  http = new HttpClient(),
) {
  try {
    return await http.sendBuffered(
      { url: `${base}${path}`, headers: {}, body: '{}' },
      { ...LIMITS, ...options },
    );
  } finally {
    void http.close().catch(() => {});
  }
}

describe('HttpClient.sendBuffered', () => {
  it('resolves with the status, the headers and the whole body', async () => {
    const response = await send('/json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.body.toString()).toBe('{"ok":true}');
  });

  it('joins a body that came in pieces', async () => {
    const response = await send('/chunked');
    expect(response.headers['x-part']).toBe('two');
    expect(response.body.toString()).toBe('{"a":1}');
  });

  it('fails a success body whose declared length passes the limit, naming the limit', async () => {
    const failure = send('/big');
    await expect(failure).rejects.toBeInstanceOf(BodyTooLargeError);
    await expect(failure).rejects.toMatchObject({ limit: 800 });
  });

  it('fails a success body without a length once it passes the limit', async () => {
    await expect(send('/big-chunked')).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('cuts an error body at its own limit and resolves with the status', async () => {
    const response = await send('/error');
    expect(response.statusCode).toBe(500);
    expect(response.headers['retry-after']).toBe('3');
    expect(response.body.toString()).toBe('e'.repeat(300) + 'e'.repeat(100));
  });

  it('wraps a failure after the headers in BodyReadError, keeping the cause', async () => {
    const failure = send('/cut');
    await expect(failure).rejects.toBeInstanceOf(BodyReadError);
    await expect(failure).rejects.toHaveProperty('cause.code', 'UND_ERR_SOCKET');
  });

  it("fails with the signal's reason when it aborts", async () => {
    const controller = new AbortController();
    const failure = send('/hang', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 10);
    await expect(failure).rejects.toThrow('stop');
  });

  it('fails at once when aborted while waiting for a connection', async () => {
    const http = new HttpClient({ connections: 1 });
    const busy = http.sendBuffered({ url: `${base}/hang`, headers: {}, body: '{}' }, LIMITS).catch(() => {});
    const controller = new AbortController();
    const queued = http.sendBuffered(
      { url: `${base}/json`, headers: {}, body: '{}' },
      { ...LIMITS, signal: controller.signal },
    );
    const started = performance.now();
    setTimeout(() => controller.abort(new Error('gave up')), 10);
    await expect(queued).rejects.toThrow('gave up');
    expect(performance.now() - started).toBeLessThan(500);
    void busy; // ends when the server closes its connections
  });

  it('fails at once with a signal already aborted', async () => {
    await expect(send('/json', { signal: AbortSignal.abort(new Error('before')) })).rejects.toThrow('before');
  });

  it('aborts through an AbortSource by a method call, and detaches from it once settled', async () => {
    let attached: AbortTarget | undefined;
    const source: { -readonly [K in keyof AbortSource]: AbortSource[K] } = {
      aborted: false,
      reason: undefined,
      attach: (target) => {
        attached = target;
      },
      detach: (target) => {
        if (attached === target) attached = undefined;
      },
    };
    const answered = await send('/json', { signal: source as unknown as AbortSignal });
    expect(answered.statusCode).toBe(200);
    expect(attached).toBeUndefined();

    const hanging = send('/hang', { signal: source as unknown as AbortSignal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    source.aborted = true;
    source.reason = new Error('deadline');
    attached?.abortedBy(source.reason);
    await expect(hanging).rejects.toThrow('deadline');
  });
});
