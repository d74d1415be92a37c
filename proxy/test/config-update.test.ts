import { startMockProvider } from '@svc/router/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy } from '../src/index.js';
import { POSTGRES_URL } from './db-engines.js';
import { ENGINES, type Engine, startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';
import { adminPost, dropSchema, sharedConfig, uniqueName } from './scale/shared-pair.js';

describe.each(ENGINES)('POST /config/update (%s)', (engine: Engine) => {
  // One proxy for the file: a refused update changes nothing, which each test checks by the version
  // the next good update gets.
  let t: TestProxy;
  const api = client(() => t);
  beforeAll(async () => {
    t = await startTestProxy(engine);
  });
  afterAll(() => t.close());
  /** Stores a good update and answers its version. */
  const goodUpdateVersion = async () =>
    (await api.post('/config/update', { router_settings: { num_retries: 2 } })).body.version as number;

  it('applies router_settings at once and answers the settings in force with the version', async () => {
    const first = await api.post('/config/update', { router_settings: { num_retries: 4 } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ router_settings: { num_retries: 4, cooldown_time: 5 } });
    const second = await api.post('/config/update', {
      router_settings: { routing_groups: [{ group_name: 'fast', models: ['gpt-4o'] }] },
    });
    expect(second.body.version).toBe(first.body.version + 1);
    // keys not given keep their values
    expect(second.body.router_settings).toMatchObject({
      num_retries: 4,
      routing_groups: [{ group_name: 'fast', models: ['gpt-4o'] }],
    });
    expect(t.proxy.router.settings.routing_groups).toEqual([{ group_name: 'fast', models: ['gpt-4o'] }]);
  });

  it('names an unknown setting with the closest valid one and changes nothing', async () => {
    const before = await goodUpdateVersion();
    const res = await api.post('/config/update', { router_settings: { num_retry: 3 } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('unknown setting `num_retry`; did you mean `num_retries`?');
    expect(await goodUpdateVersion()).toBe(before + 1);
  });

  it('refuses fallbacks naming an unknown model group, storing nothing', async () => {
    const before = await goodUpdateVersion();
    const res = await api.post('/config/update', {
      router_settings: { fallbacks: [{ 'gpt-4o': ['nope'] }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('nope');
    expect(t.proxy.router.settings.fallbacks).toEqual([]);
    expect(await goodUpdateVersion()).toBe(before + 1);
  });

  it('refuses settings that cannot change while running', async () => {
    const res = await api.post('/config/update', {
      router_settings: { redis_url: 'redis://127.0.0.1:6379' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('redis_url: cannot change while running');
  });

  it('refuses a credential written out, asking for an os.environ/ reference', async () => {
    const res = await api.post('/config/update', {
      router_settings: { default_svc_params: { api_key: 'sk-secret-value-1234' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('default_svc_params.api_key: give it as os.environ/NAME');
    expect(res.body.error.message).not.toContain('sk-secret');
  });

  it('needs the master key', async () => {
    await goodUpdateVersion();
    const { headers } = await api.newKey();
    const res = await api.post('/config/update', { router_settings: { num_retries: 1 } }, headers);
    expect(res.status).toBe(403);
    expect(t.proxy.router.settings.num_retries).toBe(2);
  });
});

describe('stored router_settings (Postgres)', () => {
  it('keeps the given settings, merged, in svc_settings with a version', async () => {
    const mock = await startMockProvider();
    const schema = uniqueName('cfg');
    const proxy = await startProxy({ config: sharedConfig(mock, { schema }), port: 0, env: {} });
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    try {
      await adminPost(proxy, '/config/update', { router_settings: { num_retries: 4 } });
      await adminPost(proxy, '/config/update', { router_settings: { allowed_fails: 1 } });
      await client.connect();
      const { rows } = await client.query(`SELECT name, value, version FROM ${schema}.svc_settings`);
      expect(rows).toEqual([
        { name: 'router_settings', value: { num_retries: 4, allowed_fails: 1 }, version: '2' },
      ]);
    } finally {
      await client.end();
      await proxy.close();
      await mock.close();
      await dropSchema(schema);
    }
  });

  it('applies them over the config file at the next start', async () => {
    const mock = await startMockProvider();
    const schema = uniqueName('cfg');
    const config = sharedConfig(mock, { schema });
    try {
      const first = await startProxy({ config, port: 0, env: {} });
      await adminPost(first, '/config/update', { router_settings: { cooldown_time: 9 } });
      await first.close();
      const second = await startProxy({ config, port: 0, env: {} });
      expect(second.router.settings.cooldown_time).toBe(9);
      await second.close();
    } finally {
      await mock.close();
      await dropSchema(schema);
    }
  });
});
