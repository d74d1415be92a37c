import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeploymentConfig } from '@svc/router';
import { type MockProvider, startMockProvider } from '@svc/router/testing';
import pg from 'pg';
import type { Database } from '../src/db/database.js';
import { openDatabase } from '../src/db/open-database.js';
import { type RunningProxy, startProxy } from '../src/index.js';
import { POSTGRES_URL } from './db-engines.js';
import { pgliteTemplate } from './pglite-template.js';

export const MASTER_KEY = 'sk-master-test-0123456789';

/** The database engines every proxy suite runs on. */
export const ENGINES = ['pglite', 'postgres'] as const;
export type Engine = (typeof ENGINES)[number];

export interface TestProxy {
  proxy: RunningProxy;
  mock: MockProvider;
  url: string;
  /** Headers with the master key. */
  admin: Record<string, string>;
  close(): Promise<void>;
}

/** A chat deployment of the OpenAI format on the mock, named `id`. */
export function mockDeployment(
  mock: MockProvider,
  id: string,
  group = 'gpt-4o',
  params = {},
): DeploymentConfig {
  return {
    model_name: group,
    svc_params: {
      model: 'openai/gpt-4o',
      api_base: `${mock.url}/${id}/v1`,
      api_key: `sk-upstream-${id}-0000`,
      input_cost_per_token: 0.000001,
      output_cost_per_token: 0.000002,
      ...params,
    },
    model_info: { id },
  };
}

/**
 * Starts a mock provider and a proxy in front of it on `engine`: PGlite in a fresh temp directory, or
 * the local Postgres in a fresh schema (dropped on close).
 */
export async function startTestProxy(
  engine: Engine,
  options: {
    models?: (mock: MockProvider) => DeploymentConfig[];
    router_settings?: Record<string, unknown>;
    svc_settings?: Record<string, unknown>;
    general_settings?: Record<string, unknown>;
    environment_variables?: Record<string, string>;
    /** The environment the proxy reads. @default {} */
    env?: NodeJS.ProcessEnv;
    /** Files written next to the config (then written as a file too): `custom_validate` modules. */
    files?: Record<string, string>;
    /** Where the proxy's log lines go (set `general_settings.log_level` to see any). */
    logStream?: { write(line: string): void };
  } = {},
): Promise<TestProxy> {
  const mock = await startMockProvider();
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-proxy-'));
  const schema = `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const database = engine === 'postgres' ? { database_url: POSTGRES_URL, database_schema: schema } : {};
  const config = {
    model_list: (options.models ?? ((m) => [mockDeployment(m, 'east')]))(mock),
    router_settings: options.router_settings ?? {},
    ...(options.svc_settings && { svc_settings: options.svc_settings }),
    general_settings: {
      master_key: MASTER_KEY,
      data_dir: dataDir,
      spend_flush_interval: 0.05,
      log_level: 'silent',
      ...database,
      ...options.general_settings,
    },
    ...(options.environment_variables && { environment_variables: options.environment_variables }),
  };
  let configPath: string | undefined;
  // a directory of its own: PGlite wants its data directory to itself
  const configDir = options.files ? await mkdtemp(join(tmpdir(), 'svc-config-')) : undefined;
  if (options.files && configDir) {
    for (const [name, text] of Object.entries(options.files)) await writeFile(join(configDir, name), text);
    configPath = join(configDir, 'config.json');
    await writeFile(configPath, JSON.stringify(config));
  }
  // the embedded database opened here from a template: initialising each one took seconds
  const own =
    engine === 'pglite' &&
    options.general_settings?.database_url === undefined &&
    options.env?.DATABASE_URL === undefined;
  const db: Database | undefined = own
    ? await openDatabase({ dataDir, pgliteTemplate: await pgliteTemplate() })
    : undefined;
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({
      port: 0,
      ...(configPath ? { configPath } : { config }),
      env: options.env ?? {},
      ...(options.logStream && { logStream: options.logStream }),
      ...(db && { database: db }),
    });
  } catch (error) {
    await db?.close();
    throw error;
  }
  return {
    proxy,
    mock,
    url: proxy.url,
    admin: { authorization: `Bearer ${MASTER_KEY}` },
    close: async () => {
      await proxy.close();
      await db?.close();
      await mock.close();
      await rm(dataDir, { recursive: true, force: true });
      if (configDir) await rm(configDir, { recursive: true, force: true });
      if (engine === 'postgres') {
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    },
  };
}

/** Waits until `check` passes, polling every 20 ms, at most `ms`. */
export async function eventually(check: () => Promise<void> | void, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
