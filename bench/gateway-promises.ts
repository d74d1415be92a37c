// bench/gateway-promises.ts (npm run bench:promises [-- <tree> ...]): promises the gateway makes per call,
// in each checkout given (default this one), for a virtual key and a team JWT, plain and streamed. Each
// tree's bench/proxy-server.ts runs with bench/lib/promise-counter.mjs preloaded (spend on Postgres,
// BENCH_DATABASE_URL or the local one); after 3,000 calls of warm-up (caches, connections), the count
// is read around 2,000 calls at 10 connections and divided by the calls served. A count, not a time:
// it repeats from run to run where CPU time on this machine moves by 20 to 40%, so a change that
// takes a promise or two off a call shows on its own (each is a microtask turn and its garbage).
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { firstLine, spawnScript, stopChild } from './lib/child.js';
import { CHAT_BODIES, CHAT_PATH, type ChatMode } from './lib/gateway-load.js';
import { startTreeProxy, type TreeProxy } from './lib/tree-proxy.js';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const COUNTER = fileURLToPath(new URL('./lib/promise-counter.mjs', import.meta.url));
const WARMUP_CALLS = 3000;
const CALLS = 2000;
const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const trees = process.argv.slice(2).map((t) => resolve(t));
if (trees.length === 0) trees.push(here);

const CELLS = [
  ['virtual key', 'plain'],
  ['virtual key', 'streaming'],
  ['team JWT', 'plain'],
  ['team JWT', 'streaming'],
] as const;

/** Runs `calls` calls at 10 connections; the calls served. */
async function calls(url: string, bearer: string, mode: ChatMode, amount: number): Promise<number> {
  const result = await autocannon({
    url: `${url}${CHAT_PATH}`,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
    body: CHAT_BODIES[mode],
    connections: 10,
    amount,
  });
  if (result.non2xx + result.errors > 0) throw new Error(`${result.non2xx + result.errors} calls failed`);
  return result.requests.total;
}

/** The server's promise count so far (the counter writes it on SIGUSR2). */
async function promisesSoFar(proxy: TreeProxy, file: string): Promise<number> {
  process.kill(proxy.pid!, 'SIGUSR2');
  // spend rows and the signal's handler land within a few turns of the server's loop
  await sleep(300);
  return Number(readFileSync(file, 'utf8'));
}

async function countTree(tree: string, upstreamUrl: string, dir: string): Promise<number[]> {
  const file = join(dir, `${basename(tree)}.count`);
  const proxy = await startTreeProxy(tree, upstreamUrl, {
    cpu: 0,
    databaseUrl: PG_URL,
    env: { NODE_OPTIONS: `--import ${COUNTER}`, BENCH_PROMISE_FILE: file },
  });
  try {
    const perCall: number[] = [];
    for (const [who, mode] of CELLS) {
      const bearer = who === 'team JWT' ? proxy.jwt : proxy.key;
      await calls(proxy.url, bearer, mode, WARMUP_CALLS);
      const before = await promisesSoFar(proxy, file);
      const served = await calls(proxy.url, bearer, mode, CALLS);
      perCall.push(((await promisesSoFar(proxy, file)) - before) / served);
    }
    return perCall;
  } finally {
    await proxy.stop();
  }
}

const upstream = spawnScript('fast-upstream.ts', [], { cpu: 1 });
const dir = await mkdtemp(join(tmpdir(), 'svc-promises-'));
try {
  const upstreamUrl = await firstLine(upstream);
  const counts: number[][] = [];
  for (const tree of trees) counts.push(await countTree(tree, upstreamUrl, dir));
  process.stdout.write(
    `\npromises per gateway call (${CALLS} calls after ${WARMUP_CALLS}, 10 connections, Postgres)\n\n`,
  );
  process.stdout.write(`| caller, call | ${trees.map((t) => basename(t)).join(' | ')} |\n`);
  process.stdout.write(`|---|${trees.map(() => '---:').join('|')}|\n`);
  CELLS.forEach(([who, mode], i) => {
    process.stdout.write(`| ${who}, ${mode} | ${counts.map((c) => c[i]!.toFixed(1)).join(' | ')} |\n`);
  });
} finally {
  await stopChild(upstream);
  await rm(dir, { recursive: true, force: true });
}
