import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockProvider, startMockProvider } from '@svc/router/testing';
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/open-database.js';
import { querySpendLogs } from '../../src/db/spend-repo.js';
import { POSTGRES_URL } from '../db-engines.js';
import { eventually, MASTER_KEY } from '../harness.js';
import { dropSchema, REDIS_URL, uniqueName } from './shared-pair.js';
import { listeningUrl, load, runCli } from './spawn-cli.js';

// Real svc-router processes on one Postgres and one Redis, as a load balancer would see them.
describe('svc-router processes sharing one database', () => {
  let mock: MockProvider;
  let dir: string;
  const schemas: string[] = [];
  beforeAll(async () => {
    mock = await startMockProvider({ record: false });
    mock.setBehavior('/east', { content: 'ok', delayMs: 40 });
    dir = await mkdtemp(join(tmpdir(), 'svc-scale-'));
  });
  afterAll(async () => {
    await mock.close();
    await rm(dir, { recursive: true, force: true });
    for (const schema of schemas) await dropSchema(schema);
  });

  /** A config file on a fresh schema (and Redis namespace); spend rows buffered for 5 s. */
  async function configFile(database = true): Promise<string> {
    const schema = uniqueName('proc');
    schemas.push(schema);
    const file = join(dir, `${schema}.yaml`);
    const db = database ? `, database_url: "${POSTGRES_URL}", database_schema: ${schema}` : '';
    await writeFile(
      file,
      `model_list:
  - model_name: gpt-4o
    svc_params: { model: openai/gpt-4o, api_base: "${mock.url}/east/v1", api_key: sk-up-0000 }
router_settings: { redis_url: "${REDIS_URL}", cache_kwargs: { namespace: ${schema} } }
general_settings: { master_key: ${MASTER_KEY}, spend_flush_interval: 5${db} }
`,
    );
    return file;
  }

  it('keeps every spend row of two processes in one table when one is stopped mid-load', async () => {
    const config = await configFile();
    // one after the other: the first creates the schema
    const first = runCli(['--config', config, '--port', '0']);
    const firstUrl = await listeningUrl(first);
    const second = runCli(['--config', config, '--port', '0']);
    const secondUrl = await listeningUrl(second);
    const onFirst = load(firstUrl, MASTER_KEY, 10);
    const onSecond = load(secondUrl, MASTER_KEY, 10);
    await new Promise((r) => setTimeout(r, 400));
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    await onFirst.stop();
    await onSecond.stop();
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    // how many is the machine's pace (a loaded CI runner serves fewer); that each is logged is the point
    expect(onFirst.served.length).toBeGreaterThan(0);
    expect(onSecond.served.length).toBeGreaterThan(0);
    const db = await openDatabase({ url: POSTGRES_URL, schema: schemas.at(-1) });
    try {
      const logged = new Set((await querySpendLogs(db, { limit: 10_000 })).map((r) => r.call_id));
      expect([...onFirst.served, ...onSecond.served].filter((id) => !logged.has(id))).toEqual([]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it('serves with --workers 2 and, on SIGTERM, exits 0 as soon as the call in flight ends', async () => {
    const config = await configFile();
    const cluster = runCli(['--config', config, '--port', '0', '--workers', '2']);
    const url = await listeningUrl(cluster);
    expect(cluster.output()).toContain('(2 workers)');
    // keep-alive connections (fetch's pool) left idle on both workers
    const traffic = load(url, MASTER_KEY, 4);
    await new Promise((r) => setTimeout(r, 300));
    await traffic.stop();
    expect(traffic.served.length).toBeGreaterThan(0);
    mock.setBehavior('/east', { content: 'ok', delayMs: 400 });
    const client = new Client(url, { keepAliveTimeout: 60_000 });
    try {
      const answer = client.request({
        path: '/v1/chat/completions',
        method: 'POST',
        headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });
      while (mock.inFlight === 0) await new Promise((r) => setTimeout(r, 10));
      cluster.child.kill('SIGTERM');
      const res = await answer;
      await res.body.text();
      const answeredAt = performance.now();
      expect([res.statusCode, res.headers.connection]).toEqual([200, 'close']);
      expect(await cluster.exited).toBe(0);
      // drain_timeout is 25 s: waiting for the keep-alive connections would show as that
      expect(performance.now() - answeredAt).toBeLessThan(5000);
      expect(cluster.output().match(/: stopped/g)).toHaveLength(2);
    } finally {
      mock.setBehavior('/east', { content: 'ok', delayMs: 40 });
      await client.destroy();
    }
  }, 60_000);

  it('restarts a worker that died and keeps serving', async () => {
    const cluster = runCli(['--config', await configFile(), '--port', '0', '--workers', '2']);
    const url = await listeningUrl(cluster);
    const pids = () => [...cluster.output().matchAll(/worker (\d+) serving/g)].map((m) => Number(m[1]));
    process.kill(pids()[0]!, 'SIGKILL');
    await eventually(() => expect(pids()).toHaveLength(3), 10_000);
    expect(cluster.output()).toMatch(/exited \(SIGKILL\)[\s\S]*restarting it in 1000 ms/);
    const res = await fetch(`${url}/health`);
    expect(res.status).toBe(200);
    cluster.child.kill('SIGTERM');
    expect(await cluster.exited).toBe(0);
  }, 60_000);

  it('refuses --workers 2 on the embedded database, saying what to set', async () => {
    const cluster = runCli(['--config', await configFile(false), '--workers', '2']);
    expect(await cluster.exited).toBe(2);
    expect(cluster.output()).toContain('--workers 2 needs a database every worker can reach');
  }, 30_000);
});
