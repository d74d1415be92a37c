// bench/gateway-ab.ts (npm run bench:ab -- [options] <tree>[@NAME=value...] ...): the gateway's CPU per
// call in several checkouts (or settings) side by side. Each tree (a checkout of this repository, built)
// runs its bench/proxy-server.ts on core 0 (spend on Postgres, BENCH_DATABASE_URL or the local one;
// `@NAME=value` adds an environment variable to that tree's server, e.g. `.@BENCH_LOG_LEVEL=warn`), all
// of them up at once; the upstream and autocannon on core 1. After a warm-up of each, BENCH_ROUNDS rounds
// (default 5) load each server in turn for BENCH_SECONDS (default 4), the order reversed every other
// round, so that the machine's drift falls on all alike. Prints each tree's CPU µs per call (median, and
// every round) and req/s. Options: --mode plain|streaming (default plain), --conns N (default 10),
// --jwt (a team token instead of the virtual key).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { firstLine, spawnScript } from './lib/child.js';
import { type ChatMode, type GatewayTarget, loadTarget } from './lib/gateway-load.js';
import { median } from './lib/stats.js';
import { startTreeProxy } from './lib/tree-proxy.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    mode: { type: 'string', default: 'plain' },
    conns: { type: 'string', default: '10' },
    jwt: { type: 'boolean', default: false },
  },
});
const mode = values.mode as ChatMode;
const connections = Number(values.conns);
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
  for (const spec of specs) servers.push(await startServer(spec, upstreamUrl));
  for (const server of servers) await loadTarget(server.target, mode, connections, 2); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
      const run = await loadTarget(server.target, mode, connections, SECONDS);
      server.cpuUs.push(run.cpuUs);
      server.rps.push(run.rps);
    }
  }
  console.log(
    `${mode} calls, ${connections} connections${values.jwt ? ', team JWT' : ', virtual key'}: ` +
      `gateway CPU µs per call, ${ROUNDS} interleaved rounds of ${SECONDS} s`,
  );
  console.log('| tree | CPU/call (median) | each round | req/s (median) |');
  console.log('|---|---:|---|---:|');
  for (const s of servers) {
    const rounds = s.cpuUs.map((c) => c.toFixed(0)).join(' ');
    console.log(`| ${s.spec} | ${median(s.cpuUs).toFixed(1)} | ${rounds} | ${median(s.rps).toFixed(0)} |`);
  }
} finally {
  for (const server of servers) await server.stop();
  upstream.kill('SIGTERM');
}
