import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestProxy, type TestProxy } from '../harness.js';
import { client } from './client.js';

describe.each(ENGINES)('JWT key mapping routes (%s)', (engine) => {
  let t: TestProxy;
  let key: string;
  let keyHash: string;
  let n = 0;
  beforeAll(async () => {
    t = await startTestProxy(engine);
    ({ key, keyHash } = await client(() => t).newKey());
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);
  const create = (over: Record<string, unknown> = {}) =>
    post('/jwt/key/mapping/new', {
      jwt_claim_name: 'email',
      jwt_claim_value: `svc${++n}@acme.com`,
      key,
      ...over,
    });

  it('POST /jwt/key/mapping/new answers the mapping, never the key', async () => {
    const { status, body } = await create({ jwt_claim_value: 'bot@acme.com', description: 'billing' });
    expect(status).toBe(200);
    expect(body).toEqual({
      id: expect.stringMatching(/^map_[0-9a-f]{16}$/),
      jwt_claim_name: 'email',
      jwt_claim_value: 'bot@acme.com',
      description: 'billing',
      is_active: true,
      created_at: expect.any(String),
    });
    expect(JSON.stringify(body)).not.toContain(key);
    expect(JSON.stringify(body)).not.toContain(keyHash);
  });

  it('POST /jwt/key/mapping/new takes the key hash instead of the key', async () => {
    expect((await create({ key: keyHash })).status).toBe(200);
  });

  it('POST /jwt/key/mapping/new for a claim name and value already mapped is 409', async () => {
    await create({ jwt_claim_value: 'dup@acme.com' });
    const { status, body } = await create({ jwt_claim_value: 'dup@acme.com' });
    expect(status).toBe(409);
    expect(body.error.code).toBe('duplicate');
  });

  it('POST /jwt/key/mapping/new with a key that does not exist is 400, without quoting it', async () => {
    const { status, body } = await create({ key: 'sk-svc-not-a-real-key' });
    expect(status).toBe(400);
    expect(body.error.code).toBe('key_not_found');
    expect(body.error.message).not.toContain('sk-svc-not-a-real-key');
  });

  it('POST /jwt/key/mapping/new without jwt_claim_value is 400 naming it', async () => {
    const { status, body } = await post('/jwt/key/mapping/new', { jwt_claim_name: 'email', key });
    expect(status).toBe(400);
    expect(body.error.message).toContain('jwt_claim_value');
  });

  it('GET /jwt/key/mapping/info answers the mapping; 404 when missing', async () => {
    const { body: created } = await create();
    const { status, body } = await get(`/jwt/key/mapping/info?id=${created.id}`);
    expect(status).toBe(200);
    expect(body).toEqual(created);
    const missing = await get('/jwt/key/mapping/info?id=map_missing');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('mapping_not_found');
  });

  it('POST /jwt/key/mapping/update changes is_active and description; 404 when missing', async () => {
    const { body: created } = await create({ description: 'old' });
    const off = await post('/jwt/key/mapping/update', { id: created.id, is_active: false });
    expect(off.body).toMatchObject({ id: created.id, is_active: false, description: 'old' });
    const renamed = await post('/jwt/key/mapping/update', { id: created.id, description: 'new' });
    expect(renamed.body).toMatchObject({ is_active: false, description: 'new' });
    expect((await post('/jwt/key/mapping/update', { id: 'map_missing', is_active: true })).status).toBe(404);
  });

  it('POST /jwt/key/mapping/update with a non-boolean is_active is 400', async () => {
    const { body: created } = await create();
    const { status, body } = await post('/jwt/key/mapping/update', { id: created.id, is_active: 'no' });
    expect(status).toBe(400);
    expect(body.error.message).toContain('is_active');
  });

  it('POST /jwt/key/mapping/delete removes the mapping; 404 when missing', async () => {
    const { body: created } = await create();
    const deleted = await post('/jwt/key/mapping/delete', { id: created.id });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: created.id });
    expect((await get(`/jwt/key/mapping/info?id=${created.id}`)).status).toBe(404);
    expect((await post('/jwt/key/mapping/delete', { id: created.id })).status).toBe(404);
  });

  it('every mapping route refuses a virtual key with 403', async () => {
    const { headers } = await newKey();
    const answers = await Promise.all([
      post('/jwt/key/mapping/new', { jwt_claim_name: 'email', jwt_claim_value: 'x', key }, headers),
      get('/jwt/key/mapping/list', headers),
      get('/jwt/key/mapping/info?id=x', headers),
      post('/jwt/key/mapping/update', { id: 'x', is_active: true }, headers),
      post('/jwt/key/mapping/delete', { id: 'x' }, headers),
    ]);
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403, 403]);
  });
});

describe.each(ENGINES)('JWT key mapping list (%s)', (engine) => {
  let t: TestProxy;
  const ids: string[] = [];
  beforeAll(async () => {
    t = await startTestProxy(engine);
    const { key } = await client(() => t).newKey();
    for (let i = 1; i <= 5; i++) {
      const { body } = await client(() => t).post('/jwt/key/mapping/new', {
        jwt_claim_name: 'email',
        jwt_claim_value: `u${i}@acme.com`,
        key,
      });
      ids.push(body.id);
    }
  });
  afterAll(() => t.close());
  const { get } = client(() => t);

  it('answers { data, total, page, size }, page 1 and size 50 by default, oldest first', async () => {
    const { status, body } = await get('/jwt/key/mapping/list');
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 5, page: 1, size: 50 });
    expect(body.data.map((m: { jwt_claim_value: string }) => m.jwt_claim_value)).toEqual([
      'u1@acme.com',
      'u2@acme.com',
      'u3@acme.com',
      'u4@acme.com',
      'u5@acme.com',
    ]);
    expect(body.data[0]).not.toHaveProperty('key_hash');
  });

  it('pages with page and size, the total counting every mapping', async () => {
    const second = await get('/jwt/key/mapping/list?page=2&size=2');
    expect(second.body).toMatchObject({ total: 5, page: 2, size: 2 });
    expect(second.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(2, 4));
    const last = await get('/jwt/key/mapping/list?page=3&size=2');
    expect(last.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(4));
    expect((await get('/jwt/key/mapping/list?page=4&size=2')).body).toMatchObject({ data: [], total: 5 });
  });

  it('takes size up to 500', async () => {
    expect((await get('/jwt/key/mapping/list?size=500')).body.size).toBe(500);
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['page=abc', 'page'],
    ['size=0', 'size'],
    ['size=501', 'size'],
    ['pages=2', 'pages'],
  ])('a bad query (%s) is 400 naming %s', async (query, field) => {
    const { status, body } = await get(`/jwt/key/mapping/list?${query}`);
    expect(status).toBe(400);
    expect(body.error.message).toContain(field);
  });
});
