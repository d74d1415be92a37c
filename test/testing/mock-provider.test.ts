import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openaiAdapter } from '../../src/providers/openai/index.js';
import { type MockFormat, type MockProvider, startMockProvider } from '../../src/testing/index.js';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
beforeEach(() => mock.reset());
afterAll(() => mock.close());

const post = (path: string, body: unknown) =>
  request(`${mock.url}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

describe('startMockProvider', () => {
  it('records method, path, headers and parsed body', async () => {
    await (await post('/x/v1/chat/completions', { model: 'm', messages: [] })).body.text();
    expect(mock.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/x/v1/chat/completions',
        body: { model: 'm', messages: [] },
      }),
    ]);
    expect(mock.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('fails only the first failTimes requests', async () => {
    mock.setBehavior('/x', { status: 500, failTimes: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await post('/x/v1/chat/completions', { model: 'm', messages: [] });
      await res.body.text();
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([500, 500, 200]);
  });

  it('applies the longest matching path prefix', async () => {
    mock.setBehavior('/x', { content: 'outer' });
    mock.setBehavior('/x/inner', { content: 'inner' });
    const res = await post('/x/inner/v1/chat/completions', { model: 'm', messages: [] });
    expect(
      ((await res.body.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message
        .content,
    ).toBe('inner');
  });

  it('counts the most requests in flight at once', async () => {
    mock.setBehavior('/slow', { delayMs: 50 });
    await Promise.all(
      Array.from({ length: 5 }, () => post('/slow/v1/chat/completions', {}).then((r) => r.body.text())),
    );
    expect(mock.maxInFlight).toBe(5);
    expect(mock.hits('/slow')).toBe(5);
  });

  it('answers an unknown path with 404 naming it', async () => {
    const res = await post('/nothing-here', {});
    expect(res.statusCode).toBe(404);
    expect(await res.body.text()).toContain('no format serves POST /nothing-here');
  });
});

describe('startMockProvider with provider adapters', () => {
  const custom: MockFormat = {
    name: 'custom',
    handles: (_method, path) => path.endsWith('/chat/completions'),
    writeError: (exchange, status) => exchange.res.writeHead(status).end('custom error'),
    respond: async (exchange) => void exchange.res.writeHead(200).end('custom answer'),
  };

  it("serves an adapter's mockFormat before the built-in formats", async () => {
    const own = await startMockProvider({ providers: [{ ...openaiAdapter, mockFormat: custom }] });
    try {
      const res = await request(`${own.url}/v1/chat/completions`, { method: 'POST', body: '{}' });
      expect(await res.body.text()).toBe('custom answer');
    } finally {
      await own.close();
    }
  });

  it('keeps the built-in formats for adapters without a mockFormat', async () => {
    const own = await startMockProvider({ providers: [openaiAdapter] });
    try {
      const res = await request(`${own.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages: [] }),
      });
      expect(JSON.parse(await res.body.text())).toMatchObject({ object: 'chat.completion' });
    } finally {
      await own.close();
    }
  });
});
