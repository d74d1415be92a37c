// bench/gateway-ab.ts (npm run bench:ab -- [options] <tree>[@NAME=value...] ...): the gateway's CPU per
// call in several checkouts (or settings) side by side. Each tree (a checkout of this repository,
// built) runs its bench/proxy-server.ts on core 0 (spend on Postgres, BENCH_DATABASE_URL or the local
// one; `@NAME=value` adds an environment variable to that tree's server, e.g.
// `.@BENCH_LOG_LEVEL=warn`), all of them up at once; the upstream and autocannon on core 1. Each tree
// is started `--starts` times (default 2): two processes of the same tree differ by up to about 10% in
// CPU per call here (four of one tree measured 130 to 144 µs a plain call, taking turns in one run), so
// one process per tree cannot tell a change of that size from the luck of a start. After a warm-up of
// each server (`BENCH_GATEWAY_WARMUP` s at 50 connections, default 20: lib/warm-up.ts), BENCH_ROUNDS
// rounds (default 5) load each server in turn for BENCH_SECONDS (default 4), the order reversed every
// other round, so that the machine's drift falls on all alike; with the 2 s warm-up of earlier passes a
// server's first round often ran 10 to 30% above its others, which the median left out. Prints each
// tree's CPU µs per call (the median over all its processes' rounds, and each process's median and
// rounds) and req/s. Options: --mode plain|streaming (default plain), --conns N (default 10), --jwt (a
// team token instead of the virtual key), --starts N, --pass-through (the same body to the pass-through
// endpoint `/openai`, its usage read, instead of the model route).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { firstLine, spawnScript } from './lib/child.js';
import {
  CHAT_BODIES,
  CHAT_PATH,
  type ChatMode,
  type GatewayTarget,
  type LoadRequest,
  loadTarget,
  warmUp,
} from './lib/gateway-load.js';
import { median } from './lib/stats.js';
import { startTreeProxy } from './lib/tree-proxy.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    mode: { type: 'string', default: 'plain' },
    conns: { type: 'string', default: '10' },
    jwt: { type: 'boolean', default: false },
    starts: { type: 'string', default: '2' },
    'pass-through': { type: 'boolean', default: false },
  },
});
const mode = values.mode as ChatMode;
const request: LoadRequest = values['pass-through']
  ? { path: `/openai${CHAT_PATH}`, body: CHAT_BODIES[mode] }
  : mode;
const connections = Number(values.conns);
const starts = Number(values.starts);
if (!Number.isInteger(starts) || starts < 1)
  throw new Error(`--starts must be a whole number >= 1, got ${values.starts}`);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const specs = positionals.length > 0 ? positionals : ['.'];

interface Server {
  spec: string;
  stop: () => Promise<void>;
  target: GatewayTarget;
  cpuUs: number[];
  rps: number[];
}

/** Starts `<tree>[@NAME=value...]`'s bench proxy on core 0. */
async function startServer(spec: string, upstreamUrl: string): Promise<Server> {
  const [treeArg, ...assignments] = spec.split('@');
  const tree = resolve(treeArg!);
  const env = Object.fromEntries(
    assignments.map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]),
  );
  const proxy = await startTreeProxy(tree, upstreamUrl, { cpu: 0, databaseUrl: PG_URL, env });
  const { url, meterUrl, jwt, key } = proxy;
  const token = values.jwt ? jwt : key;
  return {
    spec,
    stop: () => proxy.stop(),
    target: { name: spec, url, meterUrl, headers: { authorization: `Bearer ${token}` } },
    cpuUs: [],
    rps: [],
  };
}

const upstream = spawnScript('fast-upstream.ts', [], { cpu: 1 });
const servers: Server[] = [];
try {
  const upstreamUrl = await firstLine(upstream);
  for (let start = 0; start < starts; start++)
    for (const spec of specs) servers.push(await startServer(spec, upstreamUrl));
  for (const server of servers) await warmUp(server.target, request);
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
      const run = await loadTarget(server.target, request, connections, SECONDS);
      // a failing call costs less than a served one: a tree that fails (a checkout whose bench proxy
      // has no pass-through endpoint answers 404) would read cheap
      if (run.failed > 0) throw new Error(`${server.spec} failed ${run.failed} calls in a round`);
      server.cpuUs.push(run.cpuUs);
      server.rps.push(run.rps);
    }
  }
  console.log(
    `${mode} calls${values['pass-through'] ? ' through the pass-through endpoint' : ''}, ` +
      `${connections} connections${values.jwt ? ', team JWT' : ', virtual key'}: ` +
      `gateway CPU µs per call, ${starts} process(es) per tree, ${ROUNDS} interleaved rounds of ${SECONDS} s`,
  );
  console.log('| tree | CPU/call (median) | each process (median; its rounds) | req/s (median) |');
  console.log('|---|---:|---|---:|');
  for (const spec of specs) {
    const mine = servers.filter((s) => s.spec === spec);
    const processes = mine
      .map((s) => `${median(s.cpuUs).toFixed(1)} (${s.cpuUs.map((c) => c.toFixed(0)).join(' ')})`)
      .join(', ');
    const cpu = median(mine.flatMap((s) => s.cpuUs));
    const rps = median(mine.flatMap((s) => s.rps));
    console.log(`| ${spec} | ${cpu.toFixed(1)} | ${processes} | ${rps.toFixed(0)} |`);
  }
} finally {
  for (const server of servers) await server.stop();
  upstream.kill('SIGTERM');
}
