import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestProxy, type TestProxy } from './harness.js';
import { clearOfMinuteEnd } from './minute-window.js';

// One inject() test per route: status and body as docs/proxy.md pins them.
describe('proxy routes', () => {
  let t: TestProxy;
  const json = { 'content-type': 'application/json' };
  const chat = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };
  beforeAll(async () => {
    t = await startTestProxy('pglite', { general_settings: { max_request_body_mb: 0.01 } });
  });
  afterAll(() => t.close());
  const inject = (opts: InjectOptions) => t.proxy.app.inject(opts);
  const generate = async (body: Record<string, unknown> = {}) => {
    const res = await inject({
      method: 'POST',
      url: '/key/generate',
      headers: { ...t.admin, ...json },
      payload: body,
    });
    return { res, body: res.json() as { key: string; key_hash: string } & Record<string, unknown> };
  };

  it('GET / says what it is without auth', async () => {
    const res = await inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'svc-router', health: '/health' });
  });

  it('GET /routes lists the routes without auth', async () => {
    const res = await inject({ method: 'GET', url: '/routes' });
    const paths = (res.json() as { routes: Array<{ path: string }> }).routes.map((r) => r.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/v1/chat/completions', '/v1/messages', '/key/generate', '/spend/logs']),
    );
  });

  it('GET /health answers without auth and without calling an upstream', async () => {
    const before = t.mock.requests.length;
    const res = await inject({ method: 'GET', url: '/health' });
    expect(res.json()).toEqual({ status: 'ok', healthy_deployments: 1, unhealthy_deployments: 0 });
    expect(t.mock.requests.length).toBe(before);
  });

  it('GET /health/readiness checks the database', async () => {
    const res = await inject({ method: 'GET', url: '/health/readiness' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: 'ok', database_engine: 'pglite' });
  });

  it('every response carries x-svc-call-id and x-svc-overhead-ms', async () => {
    const res = await inject({ method: 'GET', url: '/health' });
    expect(res.headers['x-svc-call-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(res.headers['x-svc-overhead-ms'])).toBeGreaterThanOrEqual(0);
  });

  it('GET /v1/models needs a key: 401 without one', async () => {
    const res = await inject({ method: 'GET', url: '/v1/models' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: {
        message: expect.stringContaining('Authorization: Bearer'),
        type: 'authentication_error',
        code: 'missing_api_key',
      },
    });
  });

  it('GET /model_group/info takes x-api-key and wraps the groups in data', async () => {
    const res = await inject({
      method: 'GET',
      url: '/model_group/info',
      headers: { 'x-api-key': t.admin.authorization!.slice(7) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [expect.objectContaining({ model_group: 'gpt-4o', providers: ['openai'], mode: 'chat' })],
    });
  });

  it('POST /v1/chat/completions answers a completion', async () => {
    t.mock.setBehavior('/east', { content: 'ok' });
    const res = await inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { ...t.admin, ...json },
      payload: chat,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { content: 'ok' } }],
    });
    expect(res.json()).not.toHaveProperty('_hidden_params');
  });

  it('POST /chat/completions is the same route without /v1', async () => {
    const res = await inject({
      method: 'POST',
      url: '/chat/completions',
      headers: { ...t.admin, ...json },
      payload: chat,
    });
    expect(res.statusCode).toBe(200);
  });

  it('malformed JSON gets 400 invalid_json', async () => {
    const res = await inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { ...t.admin, ...json },
      payload: '{"model": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
  });

  it('the invalid_json message names the line and column where the body breaks, not its text', async () => {
    const res = await inject({
      method: 'POST',
      url: '/key/generate',
      headers: { ...t.admin, ...json },
      payload: '{\n  "key_alias": "sk-secret-alias",\n  "max_budget": }',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      type: 'invalid_request_error',
      code: 'invalid_json',
      message: 'The request body is not valid JSON: unexpected `}` at line 3, column 17 (character 53).',
    });
  });

  it('a malformed /v1/messages body gets the same position in the Anthropic error shape', async () => {
    const res = await inject({
      method: 'POST',
      url: '/v1/messages',
      headers: { ...t.admin, ...json },
      payload: '{"model": "gpt-4o", "max_tokens": 5 "messages": []}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      type: 'error',
      error: {
        code: 'invalid_json',
        message: expect.stringContaining('expected `,` or `}`, found `"` at line 1, column 37'),
      },
    });
  });

  it('a JSON body with a __proto__ key is refused as before, saying why', async () => {
    const res = await inject({
      method: 'POST',
      url: '/key/generate',
      headers: { ...t.admin, ...json },
      payload: '{"__proto__": {"admin": true}}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'invalid_json',
      message: expect.stringContaining('`__proto__`'),
    });
  });

  it('a body over max_request_body_mb gets 413', async () => {
    const payload = { ...chat, messages: [{ role: 'user', content: 'x'.repeat(20_000) }] };
    const res = await inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { ...t.admin, ...json },
      payload,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('request_too_large');
  });

  it('a body without model gets 400 naming the field', async () => {
    const res = await inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { ...t.admin, ...json },
      payload: { messages: [] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('`model`');
  });

  it('an unknown model gets 400 naming it and the closest group', async () => {
    const res = await inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { ...t.admin, ...json },
      payload: { ...chat, model: 'gpt4o' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/gpt4o.*did you mean `gpt-4o`/);
  });

  it('POST /v1/completions answers a text completion', async () => {
    const res = await inject({
      method: 'POST',
      url: '/v1/completions',
      headers: { ...t.admin, ...json },
      payload: { model: 'gpt-4o', prompt: 'say' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ object: 'text_completion' });
  });

  it('POST /v1/embeddings answers embeddings', async () => {
    const res = await inject({
      method: 'POST',
      url: '/v1/embeddings',
      headers: { ...t.admin, ...json },
      payload: { model: 'gpt-4o', input: 'a' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ object: 'list', data: [{ object: 'embedding' }] });
  });

  it('POST /v1/images/generations answers images', async () => {
    const res = await inject({
      method: 'POST',
      url: '/v1/images/generations',
      headers: { ...t.admin, ...json },
      payload: { model: 'gpt-4o', prompt: 'a cat' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveProperty('data');
  });

  it('POST /key/generate returns the key once, with its settings', async () => {
    const { res, body } = await generate({
      models: ['gpt-4o'],
      max_budget: 5,
      rpm_limit: 10,
      duration: '30d',
      key_alias: 'k-gen',
    });
    expect(res.statusCode).toBe(200);
    expect(body.key).toMatch(/^sk-svc-/);
    expect(body).toMatchObject({
      key_alias: 'k-gen',
      models: ['gpt-4o'],
      max_budget: 5,
      rpm_limit: 10,
      team_id: null,
      user_id: null,
    });
    expect(Date.parse(body.expires as string) - Date.now()).toBeGreaterThan(29 * 86_400_000);
  });

  it('POST /key/generate names a bad field', async () => {
    const { res, body } = await generate({ max_budjet: 5, duration: '30 days' });
    expect(res.statusCode).toBe(400);
    const message = (body as unknown as { error: { message: string } }).error.message;
    expect(message).toContain('did you mean `max_budget`');
    expect(message).toContain('duration');
  });

  it('POST /key/generate with a taken key_alias gets 409', async () => {
    await generate({ key_alias: 'taken' });
    const { res } = await generate({ key_alias: 'taken' });
    expect(res.statusCode).toBe(409);
  });

  it('POST /key/generate with a virtual key gets 403', async () => {
    const { body } = await generate();
    const res = await inject({
      method: 'POST',
      url: '/key/generate',
      headers: { authorization: `Bearer ${body.key}`, ...json },
      payload: {},
    });
    expect(res.statusCode).toBe(403);
  });

  it('GET /key/info shows a key by its hash, never the key', async () => {
    const { body } = await generate({ key_alias: 'info-me' });
    const res = await inject({ method: 'GET', url: `/key/info?key=${body.key_hash}`, headers: t.admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ key: body.key_hash, info: { key_alias: 'info-me', spend: 0 } });
    expect(res.body).not.toContain(body.key);
  });

  it('GET /key/info of a key that does not exist gets 404', async () => {
    const res = await inject({ method: 'GET', url: `/key/info?key=${'0'.repeat(64)}`, headers: t.admin });
    expect(res.statusCode).toBe(404);
  });

  it('a key limited to other models gets 403 naming the model', async () => {
    const { body } = await generate({ models: ['claude'] });
    const res = await inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${body.key}`, ...json },
      payload: chat,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'model_not_allowed',
      message: expect.stringContaining('gpt-4o'),
    });
  });

  it('a key over its rpm_limit gets 429 with retry-after', async () => {
    await clearOfMinuteEnd();
    const { body } = await generate({ rpm_limit: 1 });
    const headers = { authorization: `Bearer ${body.key}`, ...json };
    expect(
      (await inject({ method: 'POST', url: '/v1/chat/completions', headers, payload: chat })).statusCode,
    ).toBe(200);
    const res = await inject({ method: 'POST', url: '/v1/chat/completions', headers, payload: chat });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('GET /spend/logs returns rows newest first and names a bad date', async () => {
    const ok = await inject({ method: 'GET', url: '/spend/logs', headers: t.admin });
    expect(ok.statusCode).toBe(200);
    expect(Array.isArray(ok.json())).toBe(true);
    const bad = await inject({ method: 'GET', url: '/spend/logs?start_date=yesterday', headers: t.admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('start_date');
  });

  it('GET /spend/logs refuses a day that is not on the calendar rather than rolling it over', async () => {
    const res = await inject({ method: 'GET', url: '/spend/logs?end_date=2026-02-30', headers: t.admin });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/end_date.*not a calendar day/);
  });

  it('an unknown route gets a JSON 404', async () => {
    const res = await inject({ method: 'GET', url: '/v2/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('route_not_found');
  });
});
