import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, startTestProxy, type TestProxy } from '../harness.js';
import { clearOfMinuteEnd } from '../minute-window.js';
import { client } from './client.js';

describe.each(ENGINES)('key lifecycle routes (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine);
    t.mock.setBehavior('/east', { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);
  const chat = (headers: Record<string, string>, model = 'gpt-4o') =>
    post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] }, headers);
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  describe('POST /key/update', () => {
    it('sets the fields given and keeps the others', async () => {
      const { keyHash } = await newKey({ key_alias: 'upd-keep', max_budget: 5, metadata: { env: 'dev' } });
      const { status, body } = await post('/key/update', {
        key: keyHash,
        models: ['gpt-4o'],
        tpm_limit: 900,
      });
      expect(status).toBe(200);
      expect(body).toMatchObject({
        key_hash: keyHash,
        key_alias: 'upd-keep',
        models: ['gpt-4o'],
        tpm_limit: 900,
        max_budget: 5,
        metadata: { env: 'dev' },
      });
      expect((await get(`/key/info?key=${keyHash}`)).body.info).toMatchObject({
        models: ['gpt-4o'],
        tpm_limit: 900,
      });
    });

    it('starts a budget period when an update sets budget_duration', async () => {
      const { keyHash } = await newKey({ max_budget: 5 });
      const before = Date.now();
      const { body } = await post('/key/update', { key: keyHash, budget_duration: '1d' });
      const resetAt = Date.parse(body.budget_reset_at);
      expect(resetAt).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
      expect(resetAt).toBeLessThanOrEqual(Date.now() + 86_400_000 + 1000);
      const cleared = await post('/key/update', { key: keyHash, budget_duration: null });
      expect(cleared.body).toMatchObject({ budget_duration: null, budget_reset_at: null });
    });

    it('enforces an updated rpm_limit on the next call of a cached key', async () => {
      await clearOfMinuteEnd();
      const { key, headers } = await newKey();
      expect((await chat(headers)).status).toBe(200); // cached without a limit
      expect((await post('/key/update', { key, rpm_limit: 1 })).body.rpm_limit).toBe(1);
      await chat(headers);
      const refused = await chat(headers);
      expect(refused.status).toBe(429);
      expect(refused.body.error.message).toContain('rpm_limit of 1');
    });

    it('clears a field set to null and restricts models at once', async () => {
      const { key, headers } = await newKey({ max_budget: 3 });
      expect((await chat(headers)).status).toBe(200);
      const { body } = await post('/key/update', { key, max_budget: null, models: ['other-model'] });
      expect(body.max_budget).toBeNull();
      const refused = await chat(headers);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('model_not_allowed');
    });

    it('sets a new expiry from `duration`', async () => {
      const { key } = await newKey();
      const { body } = await post('/key/update', { key, duration: '1d' });
      const expires = Date.parse(body.expires);
      expect(expires).toBeGreaterThan(Date.now() + 86_000_000);
      expect(expires).toBeLessThan(Date.now() + 86_500_000);
    });

    it('answers 404 for an unknown key', async () => {
      const { status, body } = await post('/key/update', { key: 'sk-svc-no-such-key', rpm_limit: 1 });
      expect(status).toBe(404);
      expect(body.error.code).toBe('key_not_found');
    });

    it('answers 400 naming a bad field, an unknown field, or no field at all', async () => {
      const { key } = await newKey();
      const bad = await post('/key/update', { key, rpm_limit: -1 });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('rpm_limit');
      const unknown = await post('/key/update', { key, rpm_limt: 5 });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.message).toContain('rpm_limit');
      const unstorable = await post('/key/update', { key, key_alias: 'a\u0000b' });
      expect(unstorable.status).toBe(400);
      expect(unstorable.body.error.message).toContain('key_alias');
      const empty = await post('/key/update', { key });
      expect(empty.status).toBe(400);
      expect(empty.body.error.message).toContain('at least one field');
    });

    it('answers 409 for an alias another key has', async () => {
      await newKey({ key_alias: 'upd-taken' });
      const { key } = await newKey();
      const { status, body } = await post('/key/update', { key, key_alias: 'upd-taken' });
      expect(status).toBe(409);
      expect(body.error.message).toContain('key_alias');
    });
  });

  describe('POST /key/regenerate', () => {
    it('answers a new key with the same settings and spend', async () => {
      const old = await newKey({ key_alias: 'regen-same', rpm_limit: 50, max_budget: 9 });
      expect((await chat(old.headers)).status).toBe(200);
      await eventually(async () =>
        expect((await get(`/key/info?key=${old.keyHash}`)).body.info.spend).toBeGreaterThan(0),
      );
      const spend = (await get(`/key/info?key=${old.keyHash}`)).body.info.spend;
      const { status, body } = await post('/key/regenerate', { key: old.key });
      expect(status).toBe(200);
      expect(body.key).toMatch(/^sk-svc-/);
      expect(body.key).not.toBe(old.key);
      expect(body).toMatchObject({ key_alias: 'regen-same', rpm_limit: 50, max_budget: 9, spend });
      expect((await chat(bearer(body.key))).status).toBe(200);
      expect((await get(`/key/info?key=${old.keyHash}`)).status).toBe(404);
      // the key's history follows it
      expect((await get(`/spend/logs?key=${body.key_hash}`)).body.length).toBeGreaterThanOrEqual(1);
    });

    it('refuses the old key at once without a grace period', async () => {
      const old = await newKey();
      expect((await chat(old.headers)).status).toBe(200); // cached
      const { body } = await post('/key/regenerate', { key: old.keyHash });
      expect((await chat(old.headers)).status).toBe(401);
      expect((await chat(bearer(body.key))).status).toBe(200);
    });

    it('accepts the old key within grace_period, then answers 401', async () => {
      const old = await newKey();
      const { body } = await post('/key/regenerate', { key: old.key, grace_period: '2s' });
      const until = Date.now() + 2000;
      const during = await chat(old.headers);
      // a loaded machine may take the whole grace to answer: only a call within it must pass
      if (Date.now() < until) expect(during.status).toBe(200);
      await eventually(async () => expect((await chat(old.headers)).status).toBe(401), 4_000);
      expect((await chat(bearer(body.key))).status).toBe(200);
    });

    it('charges a call made with the old key within grace to the key', async () => {
      const old = await newKey({ key_alias: 'regen-charge' });
      const { body } = await post('/key/regenerate', { key: old.key, grace_period: '1h' });
      expect((await chat(old.headers)).status).toBe(200);
      await eventually(async () =>
        expect((await get(`/key/info?key=${body.key_hash}`)).body.info.spend).toBeGreaterThan(0),
      );
    });

    it('answers 404 for an unknown key and 400 naming a bad grace_period', async () => {
      expect((await post('/key/regenerate', { key: 'sk-svc-unknown' })).status).toBe(404);
      const { key } = await newKey();
      const bad = await post('/key/regenerate', { key, grace_period: 'soon' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('grace_period');
    });
  });

  describe('POST /key/block and /key/unblock', () => {
    it('refuses a blocked key with 403 key_blocked, and serves it again once unblocked', async () => {
      const { key, headers } = await newKey();
      expect((await chat(headers)).status).toBe(200); // cached
      const blocked = await post('/key/block', { key });
      expect(blocked.status).toBe(200);
      expect(blocked.body.blocked).toBe(true);
      const refused = await chat(headers);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('key_blocked');
      expect((await post('/key/unblock', { key })).body.blocked).toBe(false);
      expect((await chat(headers)).status).toBe(200);
    });

    it('answers 404 for an unknown key and 400 without one', async () => {
      expect((await post('/key/block', { key: 'sk-svc-unknown' })).status).toBe(404);
      const missing = await post('/key/unblock', {});
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toContain('key');
    });

    it('is for admins only', async () => {
      const { key, headers } = await newKey();
      const { status } = await post('/key/block', { key }, headers);
      expect(status).toBe(403);
    });
  });

  describe('audit rows', () => {
    it('records each change with the master key as a label, the key by hash prefix, and no secret', async () => {
      const { key, keyHash } = await newKey({ key_alias: 'audited' });
      await post('/key/update', { key, rpm_limit: 7 });
      await post('/key/block', { key });
      await post('/key/unblock', { key });
      const regenerated = (await post('/key/regenerate', { key, grace_period: '10s' })).body;
      const prefix = keyHash.slice(0, 8);
      const { body } = await get(`/audit/logs?object_type=key&object_id=${regenerated.key_hash}`);
      const { body: older } = await get(`/audit/logs?object_type=key&object_id=${prefix}`);
      expect(body.data.map((r: { action: string }) => r.action)).toEqual(['regenerate']);
      expect(body.data[0]).toMatchObject({
        actor: 'master_key',
        object_type: 'key',
        object_id: regenerated.key_hash.slice(0, 8),
        changes: { key_hash: { before: prefix, after: regenerated.key_hash.slice(0, 8) } },
      });
      expect(older.data.map((r: { action: string }) => r.action)).toEqual([
        'unblock',
        'block',
        'update',
        'create',
      ]);
      expect(older.data[2].changes).toEqual({ rpm_limit: { before: null, after: 7 } });
      expect(older.data[1].changes).toEqual({ blocked: { before: false, after: true } });
      const text = JSON.stringify([body, older]);
      for (const secret of [key, keyHash, regenerated.key, regenerated.key_hash, 'sk-master'])
        expect(text).not.toContain(secret);
    });
  });
});
