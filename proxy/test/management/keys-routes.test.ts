import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, startTestProxy, type TestProxy } from '../harness.js';
import { client } from './client.js';

describe.each(ENGINES)('key list and delete routes (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine);
    t.mock.setBehavior('/east', { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);
  const chat = (headers: Record<string, string>) =>
    post('/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, headers);

  it('GET /key/list pages the keys newest first, without the keys themselves', async () => {
    const first = await newKey({ key_alias: 'list-first', max_budget: 5, team_id: null, rpm_limit: 7 });
    const second = await newKey({ key_alias: 'list-second', duration: '1d' });
    const { status, body } = await get('/key/list?page=1&size=2');
    expect(status).toBe(200);
    expect(body).toMatchObject({ page: 1, size: 2, total: expect.any(Number) });
    expect(body.total).toBeGreaterThanOrEqual(2);
    expect(body.data.map((k: { key_hash: string }) => k.key_hash)).toEqual([second.keyHash, first.keyHash]);
    expect(body.data[1]).toMatchObject({
      key_hash: first.keyHash,
      key_alias: 'list-first',
      models: [],
      team_id: null,
      user_id: null,
      organization_id: null,
      spend: 0,
      max_budget: 5,
      rpm_limit: 7,
      tpm_limit: null,
      expires: null,
      blocked: false,
    });
    expect(Date.parse(body.data[0].expires)).toBeGreaterThan(Date.now());
    expect(Date.parse(body.data[1].created_at)).not.toBeNaN();
    expect(JSON.stringify(body)).not.toContain(first.key);
  });

  it('GET /key/list page 2 continues where page 1 ended', async () => {
    const keys = [await newKey(), await newKey(), await newKey()];
    const page1 = await get('/key/list?page=1&size=2');
    const page2 = await get('/key/list?page=2&size=2');
    const hashes = [...page1.body.data, ...page2.body.data].map((k: { key_hash: string }) => k.key_hash);
    expect(hashes.slice(0, 3)).toEqual(keys.map((k) => k.keyHash).reverse());
    expect(page2.body).toMatchObject({ page: 2, size: 2, total: page1.body.total });
  });

  it('GET /key/list names a bad page size', async () => {
    const { status, body } = await get('/key/list?size=501');
    expect(status).toBe(400);
    expect(body.error.message).toContain('size');
  });

  it('POST /key/delete revokes a key at once: its next call is 401', async () => {
    const { key, keyHash, headers } = await newKey();
    expect((await chat(headers)).status).toBe(200); // the key is now in the lookup cache
    const { status, body } = await post('/key/delete', { keys: [key] });
    expect(status).toBe(200);
    expect(body).toEqual({ deleted_keys: [keyHash] });
    expect((await chat(headers)).status).toBe(401);
  });

  it('POST /key/delete takes key hashes and answers only the keys that existed', async () => {
    const { keyHash } = await newKey();
    const { status, body } = await post('/key/delete', { keys: [keyHash, 'sk-svc-not-a-key'] });
    expect(status).toBe(200);
    expect(body).toEqual({ deleted_keys: [keyHash] });
    expect((await get(`/key/info?key=${keyHash}`)).status).toBe(404);
  });

  it('POST /key/delete keeps the deleted key spend log rows', async () => {
    const { keyHash, headers } = await newKey();
    expect((await chat(headers)).status).toBe(200);
    await eventually(async () => expect((await get(`/spend/logs?key=${keyHash}`)).body).toHaveLength(1));
    await post('/key/delete', { keys: [keyHash] });
    expect((await get(`/spend/logs?key=${keyHash}`)).body).toHaveLength(1);
  });

  it('POST /key/delete is 404 when none of the keys exists', async () => {
    const { status, body } = await post('/key/delete', { keys: ['sk-svc-not-a-key'] });
    expect(status).toBe(404);
    expect(body.error.code).toBe('key_not_found');
    expect(body.error.message).not.toContain('sk-svc-not-a-key');
  });

  it('POST /key/delete names an empty or too long list', async () => {
    for (const keys of [[], Array.from({ length: 101 }, (_, i) => `sk-${i}`)]) {
      const { status, body } = await post('/key/delete', { keys });
      expect(status).toBe(400);
      expect(body.error.message).toContain('keys');
    }
  });

  it('GET /key/list and POST /key/delete refuse a virtual key with 403', async () => {
    const { key, headers } = await newKey();
    expect((await get('/key/list', headers)).status).toBe(403);
    expect((await post('/key/delete', { keys: [key] }, headers)).status).toBe(403);
    expect((await chat(headers)).status).toBe(200);
  });
});
