// The proxy of bench/proxy.ts, in its own process: `startProxy` from the built package with one
// deployment in front of the bench upstream, prices set, a master key and embedded PGlite in a
// temporary directory (spend logging is on by default), or Postgres when BENCH_DATABASE_URL is set
// (schema `svc_bench_proxy`, kept between runs).
// It makes a virtual key through `POST /key/generate` and a team token (JWT auth is on: a side server
// serves the JWKS; the token's `client_id` names team `bench-team`), then prints `<proxy URL> <virtual
// key> <meter URL> <team JWT>`: the side server also answers `GET /__cpu` with this process's CPU use
// and the requests the proxy served, and starts and stops a CPU profile (lib/profiler.ts; the proxy's
// own routes stay as users get them).
// Usage: proxy-server.ts <upstream URL>; serves until SIGTERM, then closes the proxy (flushing spend).
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProxy, tuneV8ForGateway } from '@svc/router-proxy';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { request } from 'undici';
import { benchModelList } from './lib/bench-deployment.js';
import { BENCH_MASTER_KEY } from './lib/bench-keys.js';
import { CpuMeter } from './lib/cpu-meter.js';
import { Profiler } from './lib/profiler.js';

const [upstreamUrl] = process.argv.slice(2);
if (!upstreamUrl) throw new Error('usage: proxy-server.ts <upstream URL>');
// the V8 flags svc-router sets as it starts: this process stands in for it
tuneV8ForGateway();

const meter = new CpuMeter();
const profiler = new Profiler();
const { publicKey, privateKey } = await generateKeyPair('RS256');
const jwks = JSON.stringify({
  keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' }],
});
const side = createServer((req, res) => {
  if (req.url === '/jwks') res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
  else if (!meter.answer(req, res) && !profiler.answer(req, res, () => meter.requests))
    res.writeHead(404).end();
});
await new Promise<void>((resolve) => side.listen(0, '127.0.0.1', resolve));
const sideUrl = `http://127.0.0.1:${(side.address() as AddressInfo).port}`;

const dataDir = await mkdtemp(join(tmpdir(), 'svc-bench-proxy-'));
const databaseUrl = process.env.BENCH_DATABASE_URL;
const proxy = await startProxy({
  config: {
    model_list: benchModelList(upstreamUrl),
    general_settings: {
      master_key: BENCH_MASTER_KEY,
      data_dir: dataDir,
      enable_jwt_auth: true,
      // the product's default (`info`: a line per request) unless BENCH_LOG_LEVEL says otherwise; the
      // driver reads this process's address line off stdout and drops the log lines around it
      log_level: (process.env.BENCH_LOG_LEVEL ?? 'info') as 'info',
      ...(databaseUrl && { database_url: databaseUrl, database_schema: 'svc_bench_proxy' }),
      // the upstream as a pass-through endpoint too, its usage read (`npm run bench:ab -- --pass-through`)
      pass_through_endpoints: [{ path: '/openai', target: upstreamUrl, provider: 'openai' }],
    },
  },
  port: 0,
  env: { JWT_PUBLIC_KEY_URL: `${sideUrl}/jwks` },
  log: (message) => process.stderr.write(`[proxy] ${message}\n`),
});

const generated = await request(`${proxy.url}/key/generate`, {
  method: 'POST',
  headers: { authorization: `Bearer ${BENCH_MASTER_KEY}`, 'content-type': 'application/json' },
  body: JSON.stringify({ key_alias: `bench-${process.pid}-${Date.now()}` }), // unique: a Postgres schema outlives runs
});
if (generated.statusCode !== 200) throw new Error(`/key/generate answered ${generated.statusCode}`);
const { key } = (await generated.body.json()) as { key: string };

// a team for the JWT target (409: a Postgres schema kept from an earlier run has it already)
const team = await request(`${proxy.url}/team/new`, {
  method: 'POST',
  headers: { authorization: `Bearer ${BENCH_MASTER_KEY}`, 'content-type': 'application/json' },
  body: JSON.stringify({ team_id: 'bench-team' }),
});
await team.body.dump();
if (team.statusCode !== 200 && team.statusCode !== 409)
  throw new Error(`/team/new answered ${team.statusCode}`);
const token = await new SignJWT({ client_id: 'bench-team' })
  .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
  .setIssuedAt()
  .setExpirationTime('2h')
  .sign(privateKey);

proxy.app.server.on('request', () => {
  meter.requests++;
});
process.stdout.write(`${proxy.url} ${key} ${sideUrl} ${token}\n`);

process.on('SIGTERM', async () => {
  side.close();
  await proxy.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
});
