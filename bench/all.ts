// bench/all.ts (npm run bench): every headline bench in one run, written to docs/benchmarks.md (the
// section between the `bench:begin` and `bench:end` markers; the rest of the document is kept).
// - library: router.acompletion against direct undici calls (overhead-client.ts), plain and streamed, at
//   concurrency 1, 50 and 500, and long streams (100 content chunks) at 1 and 50; added time to
//   first token (streaming-client.ts); bytes allocated per call; heap per call in flight;
// - gateway: svc-router (virtual key and JWT; PGlite and Postgres) beside a bare undici pass-through
//   (passthrough-server.ts) and @portkey-ai/gateway (lib/portkey.ts) on the same upstream; then the
//   pass-through and svc-router again with no core of their own (unpinned), beside the pinned figures;
// - --workers 1 vs 2 of the CLI on Postgres and Redis;
// - spend rows per engine (spend.ts).
// Every measured process runs on core 0 (taskset; but in the unpinned table), the upstream and this load generator on core 1; each
// figure is a ratio to a baseline measured in the same run.
// Env: BENCH_SECONDS (load run, default 5), BENCH_ROUNDS (library and gateway rounds, default 3), BENCH_LIB_COUNT (calls per library run, default 10000),
// BENCH_LATENCY_COUNT (calls per latency cell, default 5000), BENCH_PACED_RATE (calls a second of the
// part-load latency cells, default 1000), BENCH_GATEWAY_WARMUP (seconds of warm-up per gateway target and
// mode, default 20: lib/warm-up.ts),
// BENCH_SPEND_PREFILL (default 1,000,000: the spend rows' second table, on a log that long; 0 leaves it out),
// BENCH_SKIP (comma list of library, gateway, unpinned, portkey, workers, spend), BENCH_DATABASE_URL (default the
// local Postgres), BENCH_REDIS_URL (default redis://127.0.0.1:6379), BENCH_NO_WRITE=1 (print only).
// `--node <binary>` runs the whole bench (every measured process, baselines included) on that Node
// instead: Node versions differ a lot here (Node 20's AbortController costs about 60 times Node 24's),
// so each Node major keeps its own section of the document, between markers naming it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { benchModelList } from './lib/bench-deployment.js';
import { BENCH_MASTER_KEY } from './lib/bench-keys.js';
import {
  addressLine,
  CAN_PIN,
  firstLine,
  freePort,
  onCore,
  pinSelf,
  runJson,
  spawnScript,
  stopChild,
} from './lib/child.js';
import {
  type ChatMode,
  type GatewayTarget,
  type LatencyRun,
  type LoadRun,
  latencyRun,
  loadTarget,
  warmUp,
} from './lib/gateway-load.js';
import { ensurePortkey, portkeyHeaders, startPortkey } from './lib/portkey.js';
import { medianBy } from './lib/stats.js';
import { GATEWAY_WARMUP_CONNECTIONS, GATEWAY_WARMUP_SECONDS, WARMUP_CALLS } from './lib/warm-up.js';
import type { SpendFigures } from './spend.js';
import { spendTable } from './spend.js';

const { values: flags } = parseArgs({ options: { node: { type: 'string' } } });
if (flags.node !== undefined && flags.node !== process.execPath) {
  // the same script under the other Node, tsx loaded as here; it writes its own section
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(flags.node, ['--import', 'tsx', self], { stdio: 'inherit', env: process.env });
  if (run.error) throw new Error(`Cannot run the bench on ${flags.node}: ${run.error.message}`);
  process.exit(run.status ?? 1);
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1)
  throw new Error(`BENCH_ROUNDS must be a whole number of at least 1, not ${process.env.BENCH_ROUNDS}`);
const LIB_COUNT = Number(process.env.BENCH_LIB_COUNT ?? 10_000);
// the content chunks of the library's long streams, and the calls each of their runs makes to warm
// up: 3,000 calls of 104 events, 312,000 events, three times the seven-frame stream's 15,000 calls
// of 7 (fewer if BENCH_WARMUP asks for fewer)
const LONG_CONTENTS = 100;
const LONG_WARMUP = Math.min(3000, WARMUP_CALLS);
// bench/spend.ts is run a second time on a log this many rows long (0: not)
const SPEND_PREFILL = Number(process.env.BENCH_SPEND_PREFILL ?? 1_000_000);
const SKIP = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean));
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SERVER_CORE = 0;
const LOAD_CORE = 1;
const MODES: readonly ChatMode[] = ['plain', 'streaming'];
const CONNECTIONS = [10, 50] as const;
const LATENCY_CONNECTIONS = 10;
const LATENCY_COUNT = Number(process.env.BENCH_LATENCY_COUNT ?? 5000);
// well under what any server here serves on one core (the gateway 3,000 a second and more), so a call
// is timed rather than the queue in front of it
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 1000);
if (!(PACED_RATE > 0))
  throw new Error(`BENCH_PACED_RATE must be a positive number, not ${process.env.BENCH_PACED_RATE}`);
const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const NODE_MAJOR = process.versions.node.split('.')[0];
const BEGIN = `<!-- bench:begin Node ${NODE_MAJOR} (written by npm run bench) -->`;
const END = `<!-- bench:end Node ${NODE_MAJOR} -->`;
/** Where a Node major with no section yet puts its own: after the last section of any Node. */
const LAST_END = /<!-- bench:end Node \d+ -->/g;

const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}`;
const pinning = CAN_PIN
  ? `measured process on core ${SERVER_CORE}, upstream and load generator on core ${LOAD_CORE} (taskset)`
  : 'not pinned (taskset missing or one core)';
const out: string[] = [];
const say = (line = '') => {
  out.push(line);
  process.stdout.write(`${line}\n`);
};
const note = (line: string) => process.stderr.write(`bench: ${line}\n`);
const children: ReturnType<typeof spawn>[] = [];
const fixed = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const ratio = (n: number, base: number) => (Number.isFinite(n / base) ? (n / base).toFixed(2) : 'n/a');

// ---- library ------------------------------------------------------------------------------------

interface ClientResult {
  rps: number;
  p50: number;
  p99: number;
  cpuUsPerCall: number;
  /** Calls made before the measured ones (lib/warm-up.ts), and their CPU per call. */
  warmUpCalls: number;
  warmUpCpuUsPerCall: number;
}

/** One round of a library cell: the direct client's run, then the router's. */
interface LibraryPair {
  d: ClientResult;
  r: ClientResult;
  ratio: number;
}

/** Bytes per call of each library client (overhead-client.ts in the mode `env` selects). */
async function bytesPerCall(
  url: string,
  count: number,
  concurrency: number,
  env: Record<string, string>,
): Promise<Record<'direct' | 'router' | 'direct-stream' | 'router-stream', number>> {
  const read = async (client: string) =>
    (
      await runJson<{ bytesPerCall: number }>(
        'overhead-client.ts',
        [client, url, String(count), String(concurrency)],
        {
          cpu: SERVER_CORE,
          env,
        },
      )
    ).bytesPerCall;
  return {
    direct: await read('direct'),
    router: await read('router'),
    'direct-stream': await read('direct-stream'),
    'router-stream': await read('router-stream'),
  };
}

/** `bytesPerCall`'s four readings in KiB, the router's against the direct client's by `ratioOf`. */
function fourClients(
  bytes: Awaited<ReturnType<typeof bytesPerCall>>,
  ratioOf: (n: number, base: number) => string,
): string {
  const kib = (n: number) => `${fixed(n / 1024, 1)} KiB`;
  return (
    `plain direct ${kib(bytes.direct)}, router ${kib(bytes.router)} (ratio ${ratioOf(bytes.router, bytes.direct)}); ` +
    `streamed direct ${kib(bytes['direct-stream'])}, router ${kib(bytes['router-stream'])} ` +
    `(ratio ${ratioOf(bytes['router-stream'], bytes['direct-stream'])})`
  );
}

async function library(upstreamUrl: string): Promise<void> {
  note('library');
  const pairs = [
    ['plain', 'direct', 'router'],
    ['streaming', 'direct-stream', 'router-stream'],
  ] as const;
  say(`### Library: router.acompletion against a direct undici call (${machine})`);
  say();
  say(
    'Each client in its own process on the measured core, against bench/fast-upstream.ts; req/s and the ' +
      "client's CPU per call (process.cpuUsage). Ratio: the router's req/s over the direct call's, " +
      `measured in pairs (direct, then router) in ${ROUNDS} rounds over every cell; the median round's figures, ` +
      'and the range of the rounds’ ratios.',
  );
  say();
  say(
    '| mode | concurrency | direct req/s | router req/s | ratio | ratio range | direct CPU/call (µs) | router CPU/call (µs) | added p50 (µs) |',
  );
  say('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  // long streams (LONG_CONTENTS content chunks, as real answers have hundreds) from an upstream of
  // their own: fewer calls, each a hundred events, and a shorter warm-up, which is counted in events
  // as much as in calls (each call runs the per-chunk code a hundred times)
  const long = spawnScript('fast-upstream.ts', ['--content-chunks', String(LONG_CONTENTS)], {
    cpu: LOAD_CORE,
  });
  children.push(long);
  const longUrl = await firstLine(long);
  const cells = [
    ...pairs.flatMap(([mode, direct, router]) =>
      [1, 50, 500].map((concurrency) => ({
        mode: mode as string,
        direct,
        router,
        concurrency,
        url: upstreamUrl,
        count: concurrency === 1 ? Math.ceil(LIB_COUNT / 4) : LIB_COUNT,
        env: {},
        rounds: [] as LibraryPair[],
      })),
    ),
    ...[1, 50].map((concurrency) => ({
      mode: `streaming, ${LONG_CONTENTS} chunks`,
      direct: 'direct-stream',
      router: 'router-stream',
      concurrency,
      url: longUrl,
      count: Math.ceil(LIB_COUNT / (concurrency === 1 ? 20 : 5)),
      env: { BENCH_WARMUP: String(LONG_WARMUP) },
      rounds: [] as LibraryPair[],
    })),
  ];
  // a cell's two runs follow each other, and every cell is measured once per round: the machine's
  // drift over minutes (this one's speed varies by a third) falls on both sides of a ratio alike
  for (let round = 1; round <= ROUNDS; round++)
    for (const cell of cells) {
      note(`library round ${round}: ${cell.mode} ${cell.concurrency}`);
      const run = (client: string) =>
        runJson<ClientResult>(
          'overhead-client.ts',
          [client, cell.url, String(cell.count), String(cell.concurrency)],
          { cpu: SERVER_CORE, env: cell.env },
        );
      const d = await run(cell.direct);
      const r = await run(cell.router);
      cell.rounds.push({ d, r, ratio: r.rps / d.rps });
    }
  await stopChild(long);
  for (const { mode, concurrency, rounds } of cells) {
    const { d, r } = medianBy(rounds, (round) => round.ratio);
    const ratios = rounds.map((round) => round.ratio);
    const range = `${ratio(Math.min(...ratios), 1)}–${ratio(Math.max(...ratios), 1)}`;
    say(
      `| ${mode} | ${concurrency} | ${fixed(d.rps)} | ${fixed(r.rps)} | ${ratio(r.rps, d.rps)} | ${range} | ${fixed(d.cpuUsPerCall, 1)} | ${fixed(r.cpuUsPerCall, 1)} | ${fixed(r.p50 - d.p50)} |`,
    );
  }
  say();
  const warmUps = cells.map(({ mode, concurrency, rounds }) => {
    const { d, r } = medianBy(rounds, (round) => round.ratio);
    return `${mode} ${concurrency}: ${fixed(d.warmUpCpuUsPerCall, 1)} / ${fixed(r.warmUpCpuUsPerCall, 1)}`;
  });
  say(
    `Warm-up: each run makes ${cells[0]!.rounds[0]!.d.warmUpCalls.toLocaleString('en')} calls before the measured ones (bench/lib/warm-up.ts: V8 ` +
      `is still warming up, the router's longer call path more, for about 12,500 calls; the long streams make ${LONG_WARMUP.toLocaleString('en')}, of ${LONG_CONTENTS + 4} events each). Their CPU per call, direct / router (µs; the median round's): ` +
      `${warmUps.join('; ')}.`,
  );
  say();
  // what the router adds a call, median rounds: on the long stream it is what it adds a call plus
  // LONG_CONTENTS - 3 chunks more than on the seven-frame stream at the same concurrency
  const added = (cell: (typeof cells)[number]): number => {
    const { d, r } = medianBy(cell.rounds, (round) => round.ratio);
    return r.cpuUsPerCall - d.cpuUsPerCall;
  };
  const perChunk = cells
    .filter((cell) => cell.url === longUrl)
    .map((long) => {
      const short = cells.find((c) => c.mode === 'streaming' && c.concurrency === long.concurrency)!;
      const chunk = (added(long) - added(short)) / (LONG_CONTENTS - 3);
      return `concurrency ${long.concurrency}: ${fixed(chunk, 2)} µs a chunk (${fixed(added(short), 1)} µs a call)`;
    });
  say(
    `Long streams: ${LONG_CONTENTS} content chunks a call (bench/fast-upstream.ts \`--content-chunks\`), so that what each chunk costs outweighs what each call costs, as in a real answer. ` +
      `The router's CPU over the direct client's, a chunk (the difference between what it adds to a long stream's call and to a seven-frame one's, over the ${LONG_CONTENTS - 3} chunks more) and a call (what it adds to a seven-frame stream's): ${perChunk.join('; ')}. ` +
      'Each figure is a difference of CPU times measured minutes apart: it moves with the machine more than the ratios do.',
  );
  say();
  const ttft = (client: string) =>
    runJson<{ p50: number; p99: number }>(
      'streaming-client.ts',
      ['openai', client, upstreamUrl, String(Math.ceil(LIB_COUNT / 5))],
      {
        cpu: SERVER_CORE,
      },
    );
  const td = await ttft('direct');
  const tr = await ttft('router');
  say(
    `Time to first token, one call at a time (the direct client: until its bytes hold the first content delta; the router: its first chunk, which comes with it): direct p50 ${fixed(td.p50)} µs, router p50 ${fixed(tr.p50)} µs: ` +
      `added ${fixed(tr.p50 - td.p50)} µs p50 (${fixed(tr.p99 - td.p99)} µs p99); ratio ${ratio(tr.p50, td.p50)}.`,
  );
  say();
  const allocated = await bytesPerCall(upstreamUrl, 5000, 50, { BENCH_ALLOCATED: '1' });
  say(
    `Allocated per call, freed or not (V8's sampling heap profiler over 5,000 calls at concurrency 50): ${fourClients(allocated, ratio)}. ` +
      'Unlike CPU time it barely moves between runs, and it sets how often the young generation is collected.',
  );
  say();
  const promoted = await bytesPerCall(upstreamUrl, 5000, 50, { BENCH_ALLOCATED: 'promoted' });
  say(
    `Promoted per call (the same profiler counting only what lived through a young-generation collection, or was allocated in the old generation at once: what a full collection must free): ${fourClients(promoted, ratio)}. ` +
      'V8 pretenures an object literal whose objects outlive young collections; a stream made its chunks, events and call state as literals until the twentieth pass of #27, and most runs then promoted 1.2 to 4.8 KiB a streamed call. A figure from a few collections: it moves between runs more than the bytes allocated.',
  );
  say();
  // calls held 400 ms by the upstream (streams after their first content), so that all of them are in
  // flight when the heap is read
  const holding = spawnScript('fast-upstream.ts', ['--hold-ms', '400'], { cpu: LOAD_CORE });
  children.push(holding);
  const holdUrl = await firstLine(holding);
  const inFlight = await bytesPerCall(holdUrl, 1000, 500, { BENCH_INFLIGHT: '500' });
  await stopChild(holding);
  // a direct call can hold so little that the reading is within the GC's noise (-0.0 KiB on Node 24):
  // a ratio to that says nothing
  const heapRatio = (n: number, base: number) =>
    base >= 100 ? ratio(n, base) : 'n/a: the direct call holds under 0.1 KiB';
  say(
    `Heap per call in flight (500 calls held by the upstream, streams after their first content, read after a full GC): ${fourClients(inFlight, heapRatio)}.`,
  );
  say();
}

// ---- gateway ------------------------------------------------------------------------------------

interface Server {
  child: ReturnType<typeof spawn>;
  targets: GatewayTarget[];
}

/** A cell's runs, one a round, and the one of median req/s (its p50 and CPU per call come from the same run). */
interface Cell {
  median: LoadRun;
  rounds: LoadRun[];
}
type Results = Map<string, Cell>;
const key = (target: string, mode: ChatMode, connections: number) => `${target}|${mode}|${connections}`;
/** A run that failed more than half its calls (Portkey's streams): its req/s is no figure. */
const failedMostly = (run: LoadRun) => run.failed > (run.rps * SECONDS) / 2;
/** Latency at LATENCY_CONNECTIONS, to the microsecond, by `key(target, mode, LATENCY_CONNECTIONS)`. */
const latencies = new Map<string, LatencyRun>();
/** The same at PACED_RATE calls a second (part load), by the same keys. */
const pacedLatencies = new Map<string, LatencyRun>();

/**
 * `name`'s req/s over `over`'s in a cell, round by round: within a round the two ran one after the
 * other, so the machine's drift (20 to 40% from one minute to the next here) falls on both alike. The
 * median of the rounds' ratios, and their range; undefined when either has no runs.
 */
function pairedRatio(
  results: Results,
  name: string,
  over: string,
  mode: ChatMode,
  connections: number,
): { median: number; min: number; max: number } | undefined {
  const a = results.get(key(name, mode, connections))?.rounds;
  const b = results.get(key(over, mode, connections))?.rounds;
  if (!a || !b) return undefined;
  const ratios = a.map((run, i) => run.rps / b[i]!.rps).filter(Number.isFinite);
  if (ratios.length === 0) return undefined;
  return { median: medianBy(ratios, (r) => r), min: Math.min(...ratios), max: Math.max(...ratios) };
}

/** A paired ratio as a cell shows it: the median, the range in brackets when there are several rounds. */
function showRatio(paired: ReturnType<typeof pairedRatio>): string {
  if (!paired) return 'n/a';
  const median = ratio(paired.median, 1);
  return ROUNDS > 1 ? `${median} (${ratio(paired.min, 1)}–${ratio(paired.max, 1)})` : median;
}

/**
 * Every target, every cell, ROUNDS times: within a round the targets take turns on each cell, so that
 * a ratio's numerator and denominator are measured minutes apart at most, never a whole run apart; a
 * cell's ratio is the median of its rounds' ratios (`pairedRatio`), its req/s its median round. All servers stay up meanwhile, each idle while another is measured.
 */
async function measureRounds(targets: Array<{ target: GatewayTarget; latency: boolean }>, results: Results) {
  for (const { target } of targets) for (const mode of MODES) await warmUp(target, mode);
  const runs = new Map<string, LoadRun[]>();
  const latencyRuns = new Map<string, LatencyRun[]>();
  const pacedRuns = new Map<string, LatencyRun[]>();
  const add = <T>(map: Map<string, T[]>, k: string, value: T) => map.set(k, [...(map.get(k) ?? []), value]);
  for (let round = 1; round <= ROUNDS; round++)
    for (const mode of MODES) {
      for (const connections of CONNECTIONS)
        for (const { target } of targets) {
          note(`round ${round}: ${target.name} ${mode} ${connections}`);
          const k = key(target.name, mode, connections);
          add(runs, k, await loadTarget(target, mode, connections, SECONDS));
        }
      for (const { target, latency } of targets) {
        if (!latency) continue;
        const k = key(target.name, mode, LATENCY_CONNECTIONS);
        add(latencyRuns, k, await latencyRun(target, mode, LATENCY_CONNECTIONS, LATENCY_COUNT));
        add(pacedRuns, k, await latencyRun(target, mode, LATENCY_CONNECTIONS, LATENCY_COUNT, PACED_RATE));
      }
    }
  // the run of median req/s: its p50 and CPU per call come from the same run
  for (const [k, list] of runs)
    results.set(k, {
      median: medianBy(list, (run) => run.rps),
      rounds: list,
    });
  for (const [k, list] of latencyRuns)
    latencies.set(
      k,
      medianBy(list, (run) => run.p50Us),
    );
  for (const [k, list] of pacedRuns)
    pacedLatencies.set(
      k,
      medianBy(list, (run) => run.p50Us),
    );
}

async function proxyServer(
  upstreamUrl: string,
  label: string,
  env: Record<string, string>,
  cpu: number | undefined,
): Promise<Server> {
  const child = spawnScript('proxy-server.ts', [upstreamUrl], { cpu, env });
  children.push(child);
  const [url, vkey, meterUrl, token] = (await addressLine(child)).split(' ') as [
    string,
    string,
    string,
    string,
  ];
  return {
    child,
    targets: [
      {
        name: `svc-router, ${label}, virtual key`,
        url,
        meterUrl,
        headers: { authorization: `Bearer ${vkey}` },
      },
      { name: `svc-router, ${label}, JWT`, url, meterUrl, headers: { authorization: `Bearer ${token}` } },
    ],
  };
}

/** The baseline every gateway figure is a ratio to. */
const BASE = 'pass-through (undici)';

/** The pass-through and svc-router on PGlite (and on Postgres unless left out), on `cpu` or unpinned. */
async function startServers(upstreamUrl: string, cpu: number | undefined): Promise<Server[]> {
  const pass = spawnScript('passthrough-server.ts', [upstreamUrl], { cpu });
  children.push(pass);
  const passUrl = await firstLine(pass);
  const servers: Server[] = [
    {
      child: pass,
      targets: [
        { name: BASE, url: passUrl, meterUrl: passUrl, headers: { authorization: 'Bearer sk-bench-key' } },
      ],
    },
    await proxyServer(upstreamUrl, 'PGlite', { BENCH_DATABASE_URL: '' }, cpu),
  ];
  if (PG_URL !== 'none')
    servers.push(await proxyServer(upstreamUrl, 'Postgres', { BENCH_DATABASE_URL: PG_URL }, cpu));
  return servers;
}

/** The pinned gateway tables; returns their runs, for the unpinned table to set beside. */
async function gateway(upstreamUrl: string): Promise<Results> {
  note('gateway');
  const results: Results = new Map();
  const servers = await startServers(upstreamUrl, SERVER_CORE);
  const targets = servers.flatMap((s) => s.targets.map((target) => ({ target, latency: true })));
  let portkeyName: string | undefined;
  if (!SKIP.has('portkey')) {
    const { entry, version } = ensurePortkey();
    portkeyName = `@portkey-ai/gateway ${version}`;
    const { child, url } = await startPortkey(entry, SERVER_CORE);
    children.push(child);
    servers.push({ child, targets: [] });
    // no latency cells: a tenth of svc-router's req/s or less, and a 25 ms wait before each stream's
    // first event, would make them the longest part of the run
    targets.push({
      target: { name: portkeyName, url, pid: child.pid, headers: portkeyHeaders(upstreamUrl) },
      latency: false,
    });
  }
  await measureRounds(targets, results);
  for (const server of servers) await stopChild(server.child);
  const names = [...new Set([...results.keys()].map((k) => k.split('|')[0]!))];
  const columns = MODES.flatMap((mode) => CONNECTIONS.map((c) => [mode, c] as const));
  say(`### Gateway: req/s as a ratio to a bare undici pass-through (${machine})`);
  say();
  say(
    `autocannon ${SECONDS} s per cell after a warm-up of ${GATEWAY_WARMUP_SECONDS} s per target and mode at ` +
      `${GATEWAY_WARMUP_CONNECTIONS} connections (bench/lib/warm-up.ts; until #27's twenty-eighth pass, 1 s at 10), every server on the measured core (one measured at a time), ` +
      `in front of bench/fast-upstream.ts; ${ROUNDS} rounds, the servers taking turns on each cell within a round. Each ratio is ` +
      "the median of the rounds' ratios (a server's run over the pass-through's of the same round, minutes apart at most, " +
      "so that the machine's drift falls on both), their range in brackets; req/s and CPU below are the median round's. " +
      'svc-router: bench/proxy-server.ts (one deployment, prices set, spend logged, JWT auth on, default logging: `info`, ' +
      'a line per request, to a pipe the bench reads). A cell that failed more than half its calls reads `fails`.',
  );
  say();
  say(`| server | ${columns.map(([m, c]) => `${m}, ${c} conns`).join(' | ')} |`);
  say(`|---|${columns.map(() => '---:|').join('')}`);
  const cell = (name: string, mode: ChatMode, c: number): string => {
    const run = results.get(key(name, mode, c))?.median;
    if (!run || !results.has(key(BASE, mode, c))) return '';
    if (failedMostly(run)) return 'fails';
    return name === BASE ? '1.00' : showRatio(pairedRatio(results, name, BASE, mode, c));
  };
  for (const name of names) say(`| ${name} | ${columns.map(([m, c]) => cell(name, m, c)).join(' | ')} |`);
  say();
  say(
    "The same runs: req/s, p50 (ms) and the server's CPU per call (µs; process.cpuUsage, /proc for Portkey), failed calls.",
  );
  say();
  say(`| server | ${columns.map(([m, c]) => `${m}, ${c} conns`).join(' | ')} |`);
  say(`|---|${columns.map(() => '---|').join('')}`);
  for (const name of names)
    say(
      `| ${name} | ${columns
        .map(([m, c]) => {
          const r = results.get(key(name, m, c))?.median;
          return r
            ? `${fixed(r.rps)} req/s, p50 ${fixed(r.p50, 1)}, ${fixed(r.cpuUs)} µs${r.failed ? `, ${r.failed} failed` : ''}`
            : '';
        })
        .join(' | ')} |`,
    );
  say();
  const paired = (name: string, over: string, m: ChatMode) =>
    showRatio(pairedRatio(results, name, over, m, 50));
  // a ratio to runs that failed most of their calls (Portkey's streams) would read as a real figure
  const portkeyFails = (m: ChatMode) => {
    const run = portkeyName ? results.get(key(portkeyName, m, 50))?.median : undefined;
    return run !== undefined && failedMostly(run);
  };
  const lines: string[] = [];
  for (const engine of ['PGlite', 'Postgres']) {
    const vk = `svc-router, ${engine}, virtual key`;
    if (!names.includes(vk)) continue;
    lines.push(
      `${engine}: JWT / virtual key ${MODES.map((m) => `${m} ${paired(`svc-router, ${engine}, JWT`, vk, m)}`).join(', ')} (50 conns)` +
        (portkeyName
          ? `; virtual key / Portkey ${MODES.map((m) => `${m} ${portkeyFails(m) ? 'n/a (Portkey fails)' : paired(vk, portkeyName!, m)}`).join(', ')}`
          : ''),
    );
  }
  for (const line of lines) say(`- ${line}`);
  say();
  latencyTable(
    names.filter((n) => n !== portkeyName),
    BASE,
  );
  return results;
}

/**
 * The same servers with no core of their own (as they run on most machines, and as bench:proxy runs
 * them): a gateway's GC threads and PGlite's worker can use the second core, which the pass-through,
 * doing little besides its one thread, cannot use as much. Beside each figure, the pinned one.
 */
async function unpinned(upstreamUrl: string, pinned: Results): Promise<void> {
  note('gateway, unpinned');
  const servers = await startServers(upstreamUrl, undefined);
  // the virtual-key targets only: JWT against virtual key is the pinned table's question
  const targets = servers.map((server) => server.targets[0]!);
  const results: Results = new Map();
  await measureRounds(
    targets.map((target) => ({ target, latency: false })),
    results,
  );
  for (const server of servers) await stopChild(server.child);
  const columns = MODES.flatMap((mode) => CONNECTIONS.map((c) => [mode, c] as const));
  say(
    `### Gateway, unpinned: req/s as a ratio to the pass-through, every process free to use both cores (${machine})`,
  );
  say();
  say(
    'The servers of the table above started with no `taskset`, the upstream and the load generator still on core ' +
      `${LOAD_CORE}; virtual key only; ${ROUNDS} rounds, each ratio the median of the rounds' ratios. Each cell: unpinned ratio, then the pinned one ` +
      "(above) after the slash, then the unpinned run's req/s and the server's CPU per call. A gateway's GC threads and " +
      "PGlite's worker take the second core's spare time here, which a single-threaded pass-through cannot use; " +
      'and the load generator, sharing its core with the upstream and now with the servers, caps them all near one ' +
      'req/s: a ratio near or above 1 here says the gateway kept up with that load, not that it costs what the ' +
      'pass-through costs (its CPU per call says what it costs).',
  );
  say();
  say(`| server | ${columns.map(([m, c]) => `${m}, ${c} conns`).join(' | ')} |`);
  say(`|---|${columns.map(() => '---|').join('')}`);
  for (const { name } of targets) {
    const cells = columns.map(([m, c]) => {
      const run = results.get(key(name, m, c))?.median;
      if (!run) return '';
      if (failedMostly(run)) return 'fails';
      const pinnedRatio = pairedRatio(pinned, name, BASE, m, c);
      const figures = `${fixed(run.rps)} req/s, ${fixed(run.cpuUs)} µs`;
      if (name === BASE) return figures;
      const unpinnedRatio = pairedRatio(results, name, BASE, m, c);
      return `${unpinnedRatio ? ratio(unpinnedRatio.median, 1) : 'n/a'} / ${pinnedRatio ? ratio(pinnedRatio.median, 1) : 'n/a'}; ${figures}`;
    });
    say(`| ${name} | ${cells.join(' | ')} |`);
  }
  say();
}

/**
 * The latency tables: each server's p50 and p99 at LATENCY_CONNECTIONS, saturated and at PACED_RATE
 * calls a second, and what it adds over `base`.
 */
function latencyTable(names: string[], base: string): void {
  say(`### Gateway: latency at ${LATENCY_CONNECTIONS} connections, to the microsecond (${machine})`);
  say();
  say(
    `${LATENCY_COUNT} calls per cell after a tenth as many to warm up, through an undici Pool of ${LATENCY_CONNECTIONS} ` +
      'connections on the load core, each answer read to its end (autocannon reports whole milliseconds); the median ' +
      `of ${ROUNDS} rounds. Added: the server's p50 less the pass-through's. Saturated: ${LATENCY_CONNECTIONS} calls always ` +
      "in flight, so a call's time is mostly the queue of calls before it, and the added p50 follows the req/s ratio. " +
      `At part load: ${PACED_RATE} calls a second whatever the answers' pace, what a call costs in time on a server ` +
      'that is not saturated.',
  );
  say();
  say(
    '| server | load | plain p50 (µs) | plain p99 (µs) | added p50, plain (ms) | streaming p50 (µs) | streaming p99 (µs) | added p50, streaming (ms) |',
  );
  say('|---|---|---:|---:|---:|---:|---:|---:|');
  const loads = [
    ['saturated', latencies],
    [`${PACED_RATE}/s`, pacedLatencies],
  ] as const;
  for (const [load, table] of loads)
    for (const name of names) {
      const at = (n: string, mode: ChatMode) => table.get(key(n, mode, LATENCY_CONNECTIONS));
      const cells = MODES.flatMap((mode) => {
        const run = at(name, mode);
        const baseRun = at(base, mode);
        if (!run || !baseRun) return ['', '', ''];
        return [fixed(run.p50Us), fixed(run.p99Us), fixed((run.p50Us - baseRun.p50Us) / 1000, 3)];
      });
      say(`| ${name} | ${load} | ${cells.join(' | ')} |`);
    }
  say();
}

// ---- workers ------------------------------------------------------------------------------------

/**
 * The URL the CLI prints it listens on. Its stdout is read to the end: a closed pipe would fail the
 * lines it prints while draining.
 */
function listeningUrl(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk) => {
      buffer += String(chunk);
      const url = /listening on (\S+)/.exec(buffer)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`svc-router exited with ${code} before listening`)));
  });
}

async function workers(upstreamUrl: string): Promise<void> {
  if (PG_URL === 'none') return;
  note('workers');
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-workers-'));
  const config = join(dir, 'config.yaml');
  await writeFile(
    config,
    JSON.stringify({
      model_list: benchModelList(upstreamUrl),
      router_settings: { redis_url: REDIS_URL },
      general_settings: {
        master_key: BENCH_MASTER_KEY,
        database_url: PG_URL,
        database_schema: 'svc_bench_workers',
        log_level: 'warn',
      },
    }),
  );
  const cli = fileURLToPath(new URL('../proxy/dist/cli/main.js', import.meta.url));
  const results = new Map<string, LoadRun>();
  try {
    for (const n of [1, 2]) {
      const port = await freePort();
      const [command, args] = onCore(SERVER_CORE, process.execPath, [
        cli,
        '--config',
        config,
        '--port',
        String(port),
        '--host',
        '127.0.0.1',
        '--workers',
        String(n),
      ]);
      const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(child);
      const url = await listeningUrl(child);
      const generated = await request(`${url}/key/generate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${BENCH_MASTER_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ key_alias: `bench-workers-${process.pid}-${n}` }),
      });
      const { key: vkey } = (await generated.body.json()) as { key: string };
      const target: GatewayTarget = {
        name: `--workers ${n}`,
        url,
        pid: child.pid,
        headers: { authorization: `Bearer ${vkey}` },
      };
      for (const mode of MODES) {
        await warmUp(target, mode);
        note(`workers ${n} ${mode}`);
        results.set(`${n}|${mode}`, await loadTarget(target, mode, 50, SECONDS));
      }
      await stopChild(child);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  say(`### Gateway: \`--workers 2\` against \`--workers 1\`, Postgres and Redis (${machine})`);
  say();
  say(
    'The CLI (proxy/dist/cli/main.js) with a virtual key, spend on Postgres, Redis for cooldowns and rate limits; ' +
      `autocannon 50 connections, ${SECONDS} s, after a warm-up of ${GATEWAY_WARMUP_SECONDS} s a mode. The whole cluster (primary and workers) runs on the measured core, so ` +
      'on this 2-core machine the figure is what a second worker costs, not what a second core gives.',
  );
  say();
  say('| mode | --workers 1 req/s | --workers 2 req/s | ratio |');
  say('|---|---:|---:|---:|');
  for (const mode of MODES) {
    const one = results.get(`1|${mode}`);
    const two = results.get(`2|${mode}`);
    say(
      `| ${mode} | ${fixed(one?.rps ?? Number.NaN)} | ${fixed(two?.rps ?? Number.NaN)} | ${ratio(two?.rps ?? Number.NaN, one?.rps ?? Number.NaN)} |`,
    );
  }
  say();
}

// ---- spend --------------------------------------------------------------------------------------

async function spend(): Promise<void> {
  note('spend');
  const figures = await runJson<SpendFigures[]>('spend.ts', [], {
    cpu: SERVER_CORE,
    env: { BENCH_DATABASE_URL: PG_URL, BENCH_SPEND_BATCHES: '20,200,1000', BENCH_SPEND_PREFILL: '0' },
  });
  say(`### Spend rows: µs per row by engine (${machine})`);
  say();
  say(
    "bench/spend.ts: writeSpendBatch back to back (wall and process CPU per row; PGlite's worker thread counted; " +
      "+ the Postgres server's own CPU per row, every `postgres` process read from /proc), then a SpendWriter fed at " +
      "a fixed rate with the proxy's batch size for the engine.",
  );
  say();
  say(spendTable(figures));
  const [pglite, postgres] = figures;
  if (pglite && postgres) {
    const { cpuUs, serverUs } = postgres.loaded;
    say(
      `\nPGlite / Postgres CPU per row under load: ${ratio(pglite.loaded.cpuUs, cpuUs)} against the gateway's ` +
        `process alone, ${ratio(pglite.loaded.cpuUs, cpuUs + serverUs)} counting the Postgres server's CPU too.`,
    );
  }
  say();
  // a log that has served a while: its indexes outgrow the engine's buffers, which an empty log's never do
  if (SPEND_PREFILL > 0) {
    const filled = await runJson<SpendFigures[]>('spend.ts', [], {
      cpu: SERVER_CORE,
      env: {
        BENCH_DATABASE_URL: PG_URL,
        BENCH_SPEND_BATCHES: '1000',
        BENCH_SPEND_PREFILL: String(SPEND_PREFILL),
      },
    });
    say(
      `The same, ${SPEND_PREFILL.toLocaleString('en-US')} rows in (written before measuring, \`BENCH_SPEND_PREFILL\`):`,
    );
    say();
    say(spendTable(filled));
    say();
  }
}

async function writeSection(section: string): Promise<void> {
  const doc = await readFile(DOC, 'utf8');
  const body = `${BEGIN}\n${section.trim()}\n${END}`;
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  const lastEnd = [...doc.matchAll(LAST_END)].at(-1);
  const next =
    start !== -1 && end > start
      ? `${doc.slice(0, start)}${body}${doc.slice(end + END.length)}`
      : lastEnd?.index !== undefined
        ? `${doc.slice(0, lastEnd.index + lastEnd[0].length)}\n\n${body}${doc.slice(lastEnd.index + lastEnd[0].length)}`
        : `${doc.trimEnd()}\n\n## \`npm run bench\`\n\n${body}\n`;
  await writeFile(DOC, next);
  note(`wrote ${DOC}`);
}

// ---- the run ----------------------------------------------------------------------------------

pinSelf(LOAD_CORE);
const upstream = spawnScript('fast-upstream.ts', [], { cpu: LOAD_CORE });
children.push(upstream);
try {
  const upstreamUrl = await firstLine(upstream);
  say(`Run of ${new Date().toISOString().slice(0, 10)}: ${machine}; ${pinning}.`);
  say(
    `Machine load at the start: load average ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}.`,
  );
  say();
  if (!SKIP.has('library')) await library(upstreamUrl);
  if (!SKIP.has('gateway')) {
    const pinned = await gateway(upstreamUrl);
    if (!SKIP.has('unpinned')) await unpinned(upstreamUrl, pinned);
  }
  if (!SKIP.has('workers')) await workers(upstreamUrl);
  if (!SKIP.has('spend')) await spend();
} finally {
  await Promise.all(children.map((child) => stopChild(child)));
}
if (process.env.BENCH_NO_WRITE !== '1') await writeSection(out.join('\n'));
