// Pass-through endpoints under budgets (CONTRACT 6.7): a call charged to a budget (a key's, its team's,
// ...) on an endpoint whose answers the catalog cannot price is refused before forwarding, as chat calls
// are (400 `model_unpriced`), unless the endpoint says `allow_unpriced: true`; a client that leaves
// mid-stream is charged for the whole answer, read on within `disconnect_read_*`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promptTokens } from '@svc/router';
import { type MockProvider, startMockProvider } from '@svc/router/testing';
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, startTestProxy, type TestProxy } from './harness.js';
import { postThenAbort, postThenLeave, sendThenLeave } from './leaving-client.js';
import { client } from './management/client.js';

const PRICED = 'claude-3-5-haiku-20241022';
const USAGE = { prompt_tokens: 1000, completion_tokens: 200 };
const message = (model: string, extra = {}) => ({
  model,
  max_tokens: 8,
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

describe.each(ENGINES)('pass-through endpoints and budgets (%s)', (engine) => {
  let t: TestProxy;
  let upstream: MockProvider;
  // answers every request with a stored Response, usage included, as OpenAI's `GET /v1/responses/{id}`
  let stored: Server;
  const storedMethods: string[] = [];
  beforeAll(async () => {
    upstream = await startMockProvider();
    stored = createServer((req, res) => {
      storedMethods.push(`${req.method} ${req.url} ${req.headers['x-http-method-override'] ?? '-'}`);
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'resp_1',
          object: 'response',
          model: 'gpt-4o',
          usage: { input_tokens: 100_000, output_tokens: 50_000, total_tokens: 150_000 },
        }),
      );
    });
    await new Promise<void>((resolve) => stored.listen(0, '127.0.0.1', resolve));
    const endpoint = (path: string, extra = {}) => ({
      path,
      target: `${upstream.url}/ant`,
      headers: { 'x-api-key': 'sk-ant-up' },
      ...extra,
    });
    t = await startTestProxy(engine, {
      general_settings: {
        disconnect_read_timeout: 0.5,
        max_request_body_mb: 1,
        pass_through_endpoints: [
          endpoint('/anthropic', { provider: 'anthropic' }),
          {
            path: '/openai',
            target: `${upstream.url}/oa`,
            headers: { authorization: 'Bearer up' },
            provider: 'openai',
          },
          endpoint('/gemini', { target: `${upstream.url}/gem`, provider: 'gemini' }),
          endpoint('/unread'),
          endpoint('/free', { provider: 'anthropic', allow_unpriced: true }),
          endpoint('/claude', { target: `${upstream.url}/ant/v1/messages`, provider: 'anthropic' }),
          {
            path: '/stored',
            target: `http://127.0.0.1:${(stored.address() as AddressInfo).port}`,
            headers: { authorization: 'Bearer up' },
            provider: 'openai',
          },
        ],
      },
    });
    upstream.setBehavior('/', { usage: USAGE });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
    stored?.close();
  });

  const { get, post, newKey } = client(() => t);
  const call = (path: string, key: string, body: unknown) =>
    fetch(`${t.url}${path}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  /** The key's first spend row, once written. */
  const firstRowOf = async (keyHash: string): Promise<Record<string, unknown>> => {
    let row: Record<string, unknown> | undefined;
    await eventually(async () => {
      const rows = (await get(`/spend/logs?key=${keyHash}`)).body as Array<Record<string, unknown>>;
      row = rows[0];
      expect(row).toBeDefined();
    }, 10_000);
    return row!;
  };
  const refusedUnforwarded = async (res: Response, before: number) => {
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(res.status).toBe(400);
    expect(body.error.code).toBe('model_unpriced');
    expect(upstream.requests.length).toBe(before);
    return body.error.message;
  };

  it('refuses a budgeted key a model the catalog cannot price, before forwarding', async () => {
    const { key } = await newKey({ max_budget: 10 });
    const before = upstream.requests.length;
    const reason = await refusedUnforwarded(
      await call('/anthropic', key, message('made-up-model-1')),
      before,
    );
    expect(reason).toContain('made-up-model-1');
    expect(reason).toContain('allow_unpriced');
  });

  it('refuses a budgeted key on an endpoint that reads no usage (no provider)', async () => {
    const { key } = await newKey({ max_budget: 10 });
    const before = upstream.requests.length;
    await refusedUnforwarded(await call('/unread', key, message(PRICED)), before);
  });

  it("refuses a budgeted key a path whose answers do not say what it costs, naming the endpoint's paths", async () => {
    const { key } = await newKey({ max_budget: 10 });
    const before = upstream.requests.length;
    const send = (path: string, body: unknown) =>
      fetch(`${t.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const fineTuning = await send('/openai/v1/fine_tuning/jobs', {
      model: 'gpt-4o-mini-2024-07-18',
      training_file: 'file-abc123',
    });
    const batch = await send('/gemini/v1beta/models/gemini-2.0-flash:batchGenerateContent', {
      batch: { input_config: { file_name: 'files/abc' } },
    });
    const refusals = [await fineTuning.json(), await batch.json()] as {
      error: { code: string; message: string };
    }[];
    expect([fineTuning.status, batch.status]).toEqual([400, 400]);
    expect(refusals.map((r) => r.error.code)).toEqual(['path_unpriced', 'path_unpriced']);
    expect(refusals[0]!.error.message).toContain(
      '`chat/completions`, `completions`, `embeddings` and `responses`',
    );
    expect(refusals[1]!.error.message).toContain(
      '`/gemini/v1beta/models/gemini-2.0-flash:batchGenerateContent`',
    );
    expect(upstream.requests.length).toBe(before);
  });

  it('serves a budgeted key on an endpoint whose own path is the whole metered path upstream', async () => {
    const { key } = await newKey({ max_budget: 10 });
    const res = await fetch(`${t.url}/claude`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(message(PRICED)),
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });

  it('refuses a budgeted OpenAI response run in the background, answered before it has any usage', async () => {
    const { key } = await newKey({ max_budget: 10 });
    const before = upstream.requests.length;
    const res = await fetch(`${t.url}/openai/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', input: 'hi', background: true }),
    });
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect([res.status, body.error.code]).toEqual([400, 'path_unpriced']);
    expect(body.error.message).toContain('`background`');
    expect(upstream.requests.length).toBe(before);
  });

  it('forwards a budgeted key token counting, which costs nothing', async () => {
    const { key } = await newKey({ max_budget: 10 });
    const before = upstream.requests.length;
    const res = await fetch(`${t.url}/anthropic/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: PRICED, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await res.arrayBuffer();
    expect(upstream.requests.length).toBe(before + 1);
  });

  it("forwards a budgeted key's reads, removals and OpenAI moderations, which cost nothing", async () => {
    const { key } = await newKey({ max_budget: 10 });
    const before = upstream.requests.length;
    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${t.url}/openai${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const answers = [
      await send('GET', '/v1/models'),
      await send('DELETE', '/v1/responses/resp_123'),
      await send('POST', '/v1/moderations', { model: 'omni-moderation-latest', input: 'hi' }),
      await send('POST', '/v1/responses/input_tokens', { model: 'gpt-4o', input: 'hi' }),
    ];
    for (const answer of answers) await answer.arrayBuffer();
    // each answer is the mock's own (it serves only some of these paths), none the gateway's refusal
    expect(answers.map((a) => a.status)).not.toContain(400);
    expect(upstream.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /oa/v1/models',
      'DELETE /oa/v1/responses/resp_123',
      'POST /oa/v1/moderations',
      'POST /oa/v1/responses/input_tokens',
    ]);
  });

  it('charges nothing for reading back a stored response, though its answer carries the usage it was charged', async () => {
    const { key, keyHash } = await newKey({ max_budget: 10 });
    const res = await fetch(`${t.url}/stored/v1/responses/resp_1`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { usage: unknown }).usage).toBeDefined();
    const row = await firstRowOf(keyHash);
    expect(row).toMatchObject({ cost: 0, prompt_tokens: 0 });
  });

  it('does not send on a method override, so that a free DELETE cannot run as a POST', async () => {
    const { key } = await newKey({ max_budget: 10 });
    const res = await fetch(`${t.url}/stored/v1/responses/resp_1`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}`, 'x-http-method-override': 'POST' },
    });
    await res.arrayBuffer();
    expect(storedMethods.at(-1)).toBe('DELETE /v1/responses/resp_1 -');
  });

  it('refuses a key whose team has the budget', async () => {
    const team = await post('/team/new', { max_budget: 10 });
    const { key } = await newKey({ team_id: team.body.team_id });
    const before = upstream.requests.length;
    await refusedUnforwarded(await call('/anthropic', key, message('made-up-model-2')), before);
  });

  it('serves a budgeted key a priced model', async () => {
    const { key } = await newKey({ max_budget: 10 });
    const res = await call('/anthropic', key, message(PRICED));
    expect(res.status).toBe(200);
    await res.json();
  });

  it('serves a key without a budget an unpriced model', async () => {
    const { key } = await newKey();
    const res = await call('/unread', key, message('made-up-model-3'));
    expect(res.status).toBe(200);
    await res.json();
  });

  it('serves a budgeted key an unpriced model on an endpoint with allow_unpriced: true', async () => {
    const { key } = await newKey({ max_budget: 10 });
    const res = await call('/free', key, message('made-up-model-4'));
    expect(res.status).toBe(200);
    await res.json();
  });

  it('admits a call on the model at the top of its body, not on a `model` inside another field', async () => {
    const { key } = await newKey({ max_budget: 10, models: [PRICED] });
    const before = upstream.requests.length;
    const res = await call('/anthropic', key, {
      metadata: { model: PRICED },
      ...message('made-up-model-5'),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('made-up-model-5');
    expect(upstream.requests.length).toBe(before);
  });

  it('finds the model after a long `messages`, where the SDKs write it, and charges its price', async () => {
    const { key, keyHash } = await newKey({ max_budget: 10 });
    const long = { max_tokens: 8, messages: [{ role: 'user', content: 'x'.repeat(200_000) }], model: PRICED };
    const res = await call('/anthropic', key, long);
    expect(res.status).toBe(200);
    await res.json();
    await eventually(async () => {
      const rows = (await get(`/spend/logs?key=${keyHash}`)).body as Array<Record<string, unknown>>;
      expect(rows).toMatchObject([{ model_group: PRICED, priced: true }]);
      expect(rows[0]!.cost).toBeGreaterThan(0);
    });
  });

  it('refuses a JSON body over 32 MB (max_request_body_mb if higher), which it would have to hold whole', async () => {
    const { key } = await newKey();
    const before = upstream.requests.length;
    const res = await call('/anthropic', key, message(PRICED, { padding: 'x'.repeat(33 * 1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('request_too_large');
    expect(upstream.requests.length).toBe(before);
  });

  it('admits on the model of a JSON body labelled as something else, and on a Gemini path’s model', async () => {
    const { key } = await newKey({ models: [PRICED, '/anthropic', '/gemini', 'gemini-2.0-flash'] });
    const before = upstream.requests.length;
    const plain = await fetch(`${t.url}/anthropic/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'text/plain' },
      body: JSON.stringify(message('made-up-model-6')),
    });
    const gemini = await fetch(`${t.url}/gemini/v1beta/models/gemini-2.5-pro:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gemini-2.0-flash', contents: [{ parts: [{ text: 'hi' }] }] }),
    });
    expect([plain.status, gemini.status]).toEqual([403, 403]);
    expect(upstream.requests.length).toBe(before);
  });

  it('refuses a path with `..` or `.` segments, an encoded `/` or a `#`, which a front could resolve or drop', async () => {
    const { key } = await newKey({ models: ['gpt-4o-mini', '/openai'] });
    const before = upstream.requests.length;
    for (const path of [
      '/v1/models/gpt-4o-mini/%2e%2e/chat/completions',
      '/v1/x/../chat/completions',
      '/v1/a%2Fb',
      // priced as the free path after the `#`; a front that drops the fragment would make an image
      '/v1/images/generations#/moderations',
    ]) {
      // the path as written: a URL (fetch's, or undici's request's) resolves `%2e%2e` itself
      const client = new Client(t.url);
      const res = await client.request({
        path: `/openai${path}`,
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      });
      await res.body.dump();
      await client.close();
      expect([path, res.statusCode]).toEqual([path, 400]);
    }
    expect(upstream.requests.length).toBe(before);
  });

  it('refuses a budgeted OpenAI chat stream that does not ask for its usage chunk, naming the option', async () => {
    const { key } = await newKey({ max_budget: 10 });
    const before = upstream.requests.length;
    const chat = (extra: object) =>
      fetch(`${t.url}/openai/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          messages: [{ role: 'user', content: 'hi' }],
          model: 'gpt-4o',
          stream: true,
          ...extra,
        }),
      });
    const refused = await chat({});
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect([refused.status, body.error.code]).toEqual([400, 'stream_usage_required']);
    expect(body.error.message).toContain('"stream_options": {"include_usage": true}');
    expect(upstream.requests.length).toBe(before);
    const served = await chat({ stream_options: { include_usage: true } });
    expect(served.status).toBe(200);
    await served.text();
  });

  it('does not hold the budget of a call whose client left while its key was looked up', async () => {
    const { key } = await newKey({ max_budget: 10 });
    // a GET (no body to wait for) sent and left at once: the key is not cached yet, so the client is
    // usually gone before the call is set up (http/call-abort.test.ts has that case alone)
    await sendThenLeave(t.url, 'GET', '/free/v1/models', { 'x-api-key': key });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // a budget whose reservation was never settled makes every later call wait for it
    const before = upstream.requests.length;
    const next = await fetch(`${t.url}/free/v1/models`, {
      headers: { 'x-api-key': key },
      signal: AbortSignal.timeout(5000),
    });
    await next.body?.cancel();
    expect(next.status).toBe(404); // the target's own answer: the call was forwarded, not held
    expect(upstream.requests.length).toBe(before + 1);
  });

  it('charges a client that left mid-stream for the whole answer, read on for its usage', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    upstream.setBehavior('/ant/v1/messages', { usage: USAGE, stream: { holdLastChunk: held } });
    try {
      const { key, keyHash } = await newKey({ max_budget: 10 });
      const left = await postThenLeave(
        t.url,
        '/anthropic/v1/messages',
        { 'x-api-key': key },
        message(PRICED, { stream: true }),
        'content_block_delta',
      );
      // the usage (message_delta) is sent only after the client has gone
      expect(left.received).not.toContain('message_delta');
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      const row = await firstRowOf(keyHash);
      expect(row).toMatchObject({
        stream: true,
        prompt_tokens: USAGE.prompt_tokens,
        completion_tokens: USAGE.completion_tokens,
        error_code: 'client_closed',
      });
      expect(row?.cost).toBeGreaterThan(0);
    } finally {
      upstream.setBehavior('/ant/v1/messages', { usage: USAGE });
    }
  });

  it('cuts the reply and books a failure when the target cuts a stream whose usage it reads', async () => {
    upstream.setBehavior('/ant/v1/messages', { usage: USAGE, stream: { cutAfter: 3 } });
    try {
      const { key, keyHash } = await newKey({ max_budget: 10 });
      const res = await fetch(`${t.url}/anthropic/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(message(PRICED, { stream: true })),
        signal: AbortSignal.timeout(5000),
      });
      expect(res.status).toBe(200);
      // the reply is cut (undici's fetch: TypeError 'terminated'), not left open until the client's
      // own timeout gives up on it (a DOMException, TimeoutError)
      const failure = await res.text().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(TypeError);
      const row = await firstRowOf(keyHash);
      expect(row).toMatchObject({ stream: true, status: 'failure' });
      expect(row.error_code).not.toBe('client_closed');
      await eventually(() => expect(upstream.inFlight).toBe(0));
    } finally {
      upstream.setBehavior('/ant/v1/messages', { usage: USAGE });
    }
  });

  it('charges a client that left before the target answered its prompt, counted, system prompt too', async () => {
    upstream.setBehavior('/ant/v1/messages', { usage: USAGE, delayMs: 5_000 });
    try {
      const { key, keyHash } = await newKey({ max_budget: 10 });
      const system = 'You count. '.repeat(100);
      const body = message(PRICED, { system });
      await postThenAbort(`${t.url}/anthropic/v1/messages`, { 'x-api-key': key }, body, () =>
        eventually(() => expect(upstream.inFlight).toBe(1)),
      );
      const row = await firstRowOf(keyHash);
      const prompt = await promptTokens({
        messages: [{ role: 'system', content: system }, ...body.messages],
      });
      expect(prompt).toBeGreaterThan(200);
      expect(row).toMatchObject({
        prompt_tokens: prompt,
        completion_tokens: 0,
        usage_estimated: true,
        error_code: 'client_closed',
        http_status: 499,
      });
      expect(row?.cost).toBeGreaterThan(0);
      await eventually(() => expect(upstream.inFlight).toBe(0));
    } finally {
      upstream.setBehavior('/ant/v1/messages', { usage: USAGE });
    }
  });

  it('stops reading on, and charges what was read, once disconnect_read_timeout runs out', async () => {
    upstream.setBehavior('/ant/v1/messages', { usage: USAGE, stream: { stallAfter: 1 } });
    try {
      const { key, keyHash } = await newKey({ max_budget: 10 });
      const before = upstream.requests.length;
      const started = performance.now();
      await postThenLeave(
        t.url,
        '/anthropic/v1/messages',
        { 'x-api-key': key },
        message(PRICED, { stream: true }),
        'message_start',
      );
      const row = await firstRowOf(keyHash);
      expect(performance.now() - started).toBeGreaterThan(400);
      expect(upstream.requests.length).toBe(before + 1);
      // message_start's input tokens were read; the stalled rest never came
      expect(row).toMatchObject({
        stream: true,
        prompt_tokens: USAGE.prompt_tokens,
        error_code: 'client_closed',
      });
    } finally {
      upstream.setBehavior('/ant/v1/messages', { usage: USAGE });
    }
  });
});
