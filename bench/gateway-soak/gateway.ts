// The gateway soak's gateway, in its own process: `startProxy` from the built package with one
// `openai/gpt-4o` deployment in front of the soak's upstream, prices set, a master key, `num_retries: 0`
// (every upstream failure reaches the client as the error it is, none retried away), spend logged to
// embedded PGlite in a temporary directory (its worker thread is in this process, so this process's
// RSS holds it), or to Postgres when BENCH_DATABASE_URL is set (schema `svc_bench_soak`, kept between
// runs). It makes a virtual key through `POST /key/generate`, then prints `<proxy URL> <virtual key>
// <side URL>`: the side server answers `GET /__mem` (bench/lib/mem-meter.ts; `?gc=1` after a full
// GC) with this process's memory and open sockets, the proxy's own routes staying as users get them.
// Usage: gateway.ts <upstream URL>; serves until SIGTERM, then closes the proxy (flushing spend).
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProxy, tuneV8ForGateway } from '@svc/router-proxy';
import { request } from 'undici';
import { benchModelList } from '../lib/bench-deployment.js';
import { BENCH_MASTER_KEY } from '../lib/bench-keys.js';
import { answerMemory } from '../lib/mem-meter.js';

const [upstreamUrl] = process.argv.slice(2);
if (!upstreamUrl) throw new Error('usage: gateway.ts <upstream URL>');
// the V8 flags svc-router sets as it starts: this process stands in for it
tuneV8ForGateway();

const dataDir = await mkdtemp(join(tmpdir(), 'svc-bench-soak-'));
const databaseUrl = process.env.BENCH_DATABASE_URL;
const proxy = await startProxy({
  config: {
    model_list: benchModelList(upstreamUrl),
    router_settings: { num_retries: 0 },
    general_settings: {
      master_key: BENCH_MASTER_KEY,
      data_dir: dataDir,
      log_level: 'warn', // stdout carries this process's address line
      ...(databaseUrl && { database_url: databaseUrl, database_schema: 'svc_bench_soak' }),
    },
  },
  port: 0,
  log: (message) => process.stderr.write(`[gateway] ${message}\n`),
});

const ports = { server: proxy.port, upstream: Number(new URL(upstreamUrl).port) };
const side = createServer((req, res) => {
  if (!answerMemory(req, res, () => ports)) res.writeHead(404).end();
});
await new Promise<void>((resolve) => side.listen(0, '127.0.0.1', resolve));

// the alias is unique: a Postgres schema outlives runs
const generated = await request(`${proxy.url}/key/generate`, {
  method: 'POST',
  headers: { authorization: `Bearer ${BENCH_MASTER_KEY}`, 'content-type': 'application/json' },
  body: JSON.stringify({ key_alias: `soak-${process.pid}-${Date.now()}` }),
});
if (generated.statusCode !== 200) throw new Error(`/key/generate answered ${generated.statusCode}`);
const { key } = (await generated.body.json()) as { key: string };

process.stdout.write(`${proxy.url} ${key} http://127.0.0.1:${(side.address() as AddressInfo).port}\n`);

process.on('SIGTERM', async () => {
  side.close();
  await proxy.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
});
