// bench/gateway-profile.ts (npm run bench:profile [-- <tree> ...]): where a gateway call's CPU goes.
// For each tree (a checkout of this repository, built; default this one), starts its
// bench/proxy-server.ts on core 0 (spend on Postgres, BENCH_DATABASE_URL or the local one, so that all
// of a call's work is on the profiled main thread; the upstream and autocannon on core 1), warms it up
// (`BENCH_GATEWAY_WARMUP` s a mode, lib/warm-up.ts), then, for plain and for streamed calls at 50
// connections (BENCH_CONNS) with a virtual key, measures the CPU per call over an unprofiled load run
// and takes a CPU profile of its main thread over a second one (bench/lib/profiler.ts). Each profile's
// samples are grouped by what runs them, and each group's share is scaled to the CPU per call measured
// unprofiled (the profiler's own cost is spread over all groups). Prints one Markdown table per mode, a
// column per tree. Env: BENCH_SECONDS (default 8), BENCH_PROFILE_DIR (where the .cpuprofile files go;
// default a temporary directory). With `--heap`, the bytes each call allocates instead (V8's sampling
// heap profiler, objects since collected counted; `.heapprofile` files), grouped the same way: unlike
// CPU time, a figure that barely moves between runs. With `--pass-through`, a first column for the bare
// pass-through the gateway benches measure against (bench/passthrough-server.ts), profiled the same
// way: where the gateway's CPU goes beyond it.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstLine, spawnScript, stopChild } from './lib/child.js';
import { type ChatMode, type GatewayTarget, loadTarget, warmUp } from './lib/gateway-load.js';
import { startProfile, stopProfile } from './lib/profiler.js';
import { startTreeProxy } from './lib/tree-proxy.js';

const CONNS = Number(process.env.BENCH_CONNS ?? 50);
if (!Number.isInteger(CONNS) || CONNS < 1)
  throw new Error(`BENCH_CONNS must be a whole number of connections, not ${process.env.BENCH_CONNS}`);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DIR = process.env.BENCH_PROFILE_DIR ?? mkdtempSync(join(tmpdir(), 'svc-profile-'));
mkdirSync(DIR, { recursive: true });
const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const HEAP = process.argv.includes('--heap');
const PASS = process.argv.includes('--pass-through');
const PASS_THROUGH = 'pass-through';
const trees = process.argv
  .slice(2)
  .filter((a) => a !== '--heap' && a !== '--pass-through')
  .map((t) => resolve(t));
if (trees.length === 0) trees.push(here);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The group a sample's function belongs to, in the order the table lists them. */
const GROUPS: ReadonlyArray<[string, (url: string, fn: string) => boolean]> = [
  ['gateway: routes, auth, spend, limits', (u) => /\/proxy\/dist\//.test(u)],
  ['router: call path, routing, outcomes', (u) => /\/dist\/router\//.test(u)],
  ['providers: request, stream parsing, normalising', (u) => /\/dist\/providers\//.test(u)],
  ['library: other (cost, records, errors, ...)', (u) => /\/dist\//.test(u) && !/node_modules/.test(u)],
  [
    'fastify (routing, hooks, body parsing, reply)',
    (u) =>
      /node_modules\/(fastify|@fastify|find-my-way|avvio|secure-json-parse|fast-json-stringify|light-my-request|fast-querystring|toad-cache)\//.test(
        u,
      ),
  ],
  [
    'undici (upstream HTTP client, llhttp)',
    (u) => /node_modules\/undici\//.test(u) || u.startsWith('wasm://'),
  ],
  ['prom-client (metrics)', (u) => /node_modules\/prom-client\//.test(u)],
  ['pino (logging)', (u) => /node_modules\/(pino|sonic-boom|thread-stream)/.test(u)],
  ['pg (spend rows)', (u) => /node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//.test(u)],
  ['OpenTelemetry API', (u) => /node_modules\/@opentelemetry\//.test(u)],
  ['other packages', (u) => /node_modules\//.test(u)],
  ['AbortController / EventTarget', (u) => /node:internal\/(abort_controller|event_target)/.test(u)],
  [
    'Node HTTP server and streams',
    (u) => /node:(_http_|net|internal\/streams|internal\/stream_base_commons|events|internal\/http)/.test(u),
  ],
  ['socket writes (writev)', (_u, f) => /^(writev|writeBuffer|writeUtf8String|writeLatin1String)$/.test(f)],
  [
    'promise jobs and ticks',
    (u, f) => /node:internal\/process\/task_queues/.test(u) || f === 'runMicrotasks',
  ],
  ['garbage collector', (_u, f) => f === '(garbage collector)'],
  ['V8 and Node runtime (program, other builtins)', () => true],
];

interface AllocationNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: AllocationNode[];
}

/** Bytes allocated per group and the total, from a sampling heap profile. */
function groupBytes(head: AllocationNode): { groups: Map<string, number>; total: number } {
  const groups = new Map<string, number>(GROUPS.map(([name]) => [name, 0]));
  let total = 0;
  const visit = (node: AllocationNode) => {
    if (node.selfSize > 0) {
      const { functionName, url } = node.callFrame;
      const group = GROUPS.find(([, test]) => test(url, functionName))![0];
      groups.set(group, groups.get(group)! + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) visit(child);
  };
  visit(head);
  return { groups, total };
}

/** Self time per group (µs) and the total, idle left out. */
function groupTimes(profile: Profile): { groups: Map<string, number>; total: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const groups = new Map<string, number>(GROUPS.map(([name]) => [name, 0]));
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const { functionName, url } = byId.get(profile.samples[i]!)!.callFrame;
    if (functionName === '(idle)') continue;
    const us = profile.timeDeltas[i] ?? 0;
    total += us;
    const group = GROUPS.find(([, test]) => test(url, functionName))![0];
    groups.set(group, groups.get(group)! + us);
  }
  return { groups, total };
}

const TOTAL_ROW = HEAP ? 'total (bytes allocated per call)' : 'total (process CPU per call, measured)';

/** Profiles (or heap-profiles) plain and streamed calls to `target`, whose profiler answers at `meterUrl`. */
async function profileTarget(
  target: GatewayTarget,
  meterUrl: string,
  label: string,
): Promise<Map<ChatMode, Map<string, number>>> {
  const result = new Map<ChatMode, Map<string, number>>();
  for (const mode of ['plain', 'streaming'] as const) {
    await warmUp(target, mode); // JIT (lib/warm-up.ts), connections, caches
    if (HEAP) {
      const file = join(DIR, `${label}-${mode}.heapprofile`);
      await startProfile(meterUrl, 'heap');
      await loadTarget(target, mode, CONNS, SECONDS);
      const requests = await stopProfile(meterUrl, file);
      const { groups, total } = groupBytes(
        (JSON.parse(readFileSync(file, 'utf8')) as { head: AllocationNode }).head,
      );
      const perCall = new Map([...groups].map(([name, bytes]) => [name, bytes / requests]));
      perCall.set(TOTAL_ROW, total / requests);
      result.set(mode, perCall);
      process.stderr.write(`heap profile: ${label} ${mode}: ${requests} calls, ${file}\n`);
      continue;
    }
    // the CPU per call unprofiled, then a profiled run for the shares (the profiler costs CPU itself)
    const run = await loadTarget(target, mode, CONNS, SECONDS);
    const file = join(DIR, `${label}-${mode}.cpuprofile`);
    await startProfile(meterUrl);
    await loadTarget(target, mode, CONNS, SECONDS);
    await stopProfile(meterUrl, file);
    const { groups, total } = groupTimes(JSON.parse(readFileSync(file, 'utf8')) as Profile);
    // each group's share of the profile, times the CPU per call measured unprofiled
    const perCall = new Map([...groups].map(([name, us]) => [name, (us / total) * run.cpuUs]));
    perCall.set(TOTAL_ROW, run.cpuUs);
    result.set(mode, perCall);
    process.stderr.write(`profile: ${label} ${mode}: ${Math.round(run.rps)} req/s, ${file}\n`);
  }
  return result;
}

async function profileTree(tree: string, upstreamUrl: string): Promise<Map<ChatMode, Map<string, number>>> {
  const proxy = await startTreeProxy(tree, upstreamUrl, { cpu: 0, databaseUrl: PG_URL });
  const { url, key, meterUrl } = proxy;
  const target = { name: tree, url, meterUrl, headers: { authorization: `Bearer ${key}` } };
  try {
    return await profileTarget(target, meterUrl, basename(tree));
  } finally {
    await proxy.stop();
  }
}

/** The same for this checkout's bare pass-through (bench/passthrough-server.ts), the bench's baseline. */
async function profilePassThrough(upstreamUrl: string): Promise<Map<ChatMode, Map<string, number>>> {
  const server = spawnScript('passthrough-server.ts', [upstreamUrl], { cpu: 0 });
  try {
    const url = await firstLine(server);
    return await profileTarget({ name: PASS_THROUGH, url, meterUrl: url, headers: {} }, url, PASS_THROUGH);
  } finally {
    await stopChild(server);
  }
}

const upstream = spawnScript('fast-upstream.ts', [], { cpu: 1 });
try {
  const upstreamUrl = await firstLine(upstream);
  const results: Array<Map<ChatMode, Map<string, number>>> = [];
  if (PASS) results.push(await profilePassThrough(upstreamUrl));
  for (const tree of trees) results.push(await profileTree(tree, upstreamUrl));
  const columns = [...(PASS ? [PASS_THROUGH] : []), ...trees.map((t) => basename(t))];
  for (const mode of ['plain', 'streaming'] as const) {
    const what = HEAP ? 'bytes the gateway allocates per call' : 'µs of gateway CPU per call';
    process.stdout.write(`\n${mode} call, ${what} (main thread, ${CONNS} connections)\n\n`);
    process.stdout.write(`| where | ${columns.join(' | ')} |\n`);
    process.stdout.write(`|---|${columns.map(() => '---:').join('|')}|\n`);
    const rows = [...GROUPS.map(([name]) => name), TOTAL_ROW];
    for (const row of rows) {
      const cells = results.map((r) => (r.get(mode)!.get(row) ?? 0).toFixed(HEAP ? 0 : 1));
      process.stdout.write(`| ${row} | ${cells.join(' | ')} |\n`);
    }
  }
} finally {
  await stopChild(upstream);
}
