// The proxy of bench/proxy.ts, in its own process: `startProxy` from the built package with one
// deployment in front of the bench upstream, prices set, a master key and embedded PGlite in a
// temporary directory (spend logging is on by default), or Postgres when BENCH_DATABASE_URL is set
// (schema `svc_bench_proxy`, kept between runs).
// It makes a virtual key through `POST /key/generate`, then prints `<proxy URL> <virtual key> <meter
// URL>`: a side server on another port answers `GET /__cpu` with this process's CPU use and the
// requests the proxy served (the proxy's own routes stay as users get them).
// Usage: proxy-server.ts <upstream URL>; serves until SIGTERM, then closes the proxy (flushing spend).
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProxy } from '@svc/router/proxy';
import { request } from 'undici';
import { CpuMeter } from './lib/cpu-meter.js';

const MASTER_KEY = 'sk-bench-master-key';
const [upstreamUrl] = process.argv.slice(2);
if (!upstreamUrl) throw new Error('usage: proxy-server.ts <upstream URL>');

const dataDir = await mkdtemp(join(tmpdir(), 'svc-bench-proxy-'));
const databaseUrl = process.env.BENCH_DATABASE_URL;
const proxy = await startProxy({
  config: {
    model_list: [
      {
        model_name: 'gpt-4o',
        svc_params: {
          model: 'openai/gpt-4o',
          api_base: `${upstreamUrl}/v1`,
          api_key: 'sk-bench-upstream-key',
          input_cost_per_token: 0.0000025,
          output_cost_per_token: 0.00001,
        },
      },
    ],
    general_settings: {
      master_key: MASTER_KEY,
      data_dir: dataDir,
      ...(databaseUrl && { database_url: databaseUrl, database_schema: 'svc_bench_proxy' }),
    },
  },
  port: 0,
  env: {},
  log: (message) => process.stderr.write(`[proxy] ${message}\n`),
});

const generated = await request(`${proxy.url}/key/generate`, {
  method: 'POST',
  headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
  body: JSON.stringify({ key_alias: `bench-${process.pid}-${Date.now()}` }), // unique: a Postgres schema outlives runs
});
if (generated.statusCode !== 200) throw new Error(`/key/generate answered ${generated.statusCode}`);
const { key } = (await generated.body.json()) as { key: string };

const meter = new CpuMeter();
proxy.app.server.on('request', () => {
  meter.requests++;
});
const side = createServer((req, res) => {
  if (!meter.answer(req, res)) res.writeHead(404).end();
});
side.listen(0, '127.0.0.1', () => {
  const { port } = side.address() as AddressInfo;
  process.stdout.write(`${proxy.url} ${key} http://127.0.0.1:${port}\n`);
});

process.on('SIGTERM', async () => {
  side.close();
  await proxy.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
});
