import { randomUUID } from 'node:crypto';
import type { DeploymentConfig } from '@svc/router';
import { type MockProvider, startMockProvider } from '@svc/router/testing';
import pg from 'pg';
import { type RunningProxy, startProxy } from '../../src/index.js';
import { POSTGRES_URL } from '../db-engines.js';
import { MASTER_KEY, mockDeployment } from '../harness.js';

export const REDIS_URL = process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A unique suffix: a Postgres schema and a Redis namespace no other test uses. */
export const uniqueName = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;

/**
 * The config two processes of one deployment share: one Postgres schema, one Redis namespace (or no
 * Redis), deployments on one mock provider.
 */
export function sharedConfig(
  mock: MockProvider,
  options: { schema: string; namespace?: string | undefined; models?: DeploymentConfig[] },
): Record<string, unknown> {
  return {
    model_list: options.models ?? [mockDeployment(mock, 'east'), mockDeployment(mock, 'west')],
    router_settings: options.namespace
      ? { redis_url: REDIS_URL, cache_kwargs: { namespace: options.namespace } }
      : {},
    general_settings: {
      master_key: MASTER_KEY,
      database_url: POSTGRES_URL,
      database_schema: options.schema,
      spend_flush_interval: 0.05,
    },
  };
}

export interface SharedPair {
  mock: MockProvider;
  a: RunningProxy;
  b: RunningProxy;
  schema: string;
  close(): Promise<void>;
}

/** Two proxies in this process on one Postgres schema and (unless `redis: false`) one Redis namespace. */
export async function startSharedPair(options: { redis?: boolean } = {}): Promise<SharedPair> {
  const mock = await startMockProvider();
  const schema = uniqueName('scale');
  const config = sharedConfig(mock, {
    schema,
    namespace: options.redis === false ? undefined : uniqueName('scale'),
  });
  // one after the other: the first creates the schema and migrates it
  const a = await startProxy({ config, port: 0, env: {} });
  const b = await startProxy({ config, port: 0, env: {} });
  return {
    mock,
    a,
    b,
    schema,
    close: async () => {
      await Promise.all([a.close(), b.close()]);
      await mock.close();
      await dropSchema(schema);
    },
  };
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}

/** One chat call through `proxy` with `headers`; its status and body. */
export async function chat(
  proxy: RunningProxy,
  headers: Record<string, string> = { authorization: `Bearer ${MASTER_KEY}` },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await proxy.app.inject({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
  });
  return { status: res.statusCode, body: res.json() };
}

/** A POST with the master key through `inject()`; its status and body. */
export async function adminPost(
  proxy: RunningProxy,
  url: string,
  payload: Record<string, unknown>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await proxy.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
    payload,
  });
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
  return { status: res.statusCode, body: res.json() as any };
}
