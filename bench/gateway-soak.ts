// bench/gateway-soak.ts (npm run soak:gateway; `-- --db postgres` for the spend log on Postgres): does
// the gateway's memory stay flat over many calls, half of them failing upstream? 100,000 calls
// (SOAK_CALLS), plain and streamed in turn, at a fixed concurrency (SOAK_CONCURRENCY, 50), through the
// gateway (gateway-soak/gateway.ts: startProxy from the built package, num_retries 0, spend on embedded
// PGlite or Postgres) to an upstream that fails every other call of each kind with a 500, a 429, a reset
// connection or an answer cut half-way (gateway-soak/upstream.ts). Every SOAK_SAMPLE_EVERY calls (5,000)
// the calls in flight finish, the spend log's last batch is left to be written, and the gateway reports
// its heap (before and after a full GC), RSS (its PGlite worker and WebAssembly memory included),
// external memory and open sockets. Prints a Markdown table and a verdict: growth to the last sample
// from the lowest one from SOAK_WARMUP calls (10,000) on, against bounds (gateway-soak/report.ts).
// Exits 1 when memory or sockets grew past them, or when a call ended in a way the upstream did not
// cause (a dropped connection, a cut answer passed off as whole, a success not served).
// The gateway runs on core 0, the upstream and this driver on core 1 (taskset), as bench/all.ts does.
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool, request } from 'undici';
import { type CallEnding, type CallKind, gatewayCall } from './gateway-soak/call.js';
import { type Sample, sampleTable, unexplained, verdict } from './gateway-soak/report.js';
import { CAN_PIN, firstLine, pinSelf, spawnScript, stopChild } from './lib/child.js';
import { readMem } from './lib/mem-meter.js';

const CALLS = Number(process.env.SOAK_CALLS ?? 100_000);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 50);
const SAMPLE_EVERY = Number(process.env.SOAK_SAMPLE_EVERY ?? 5_000);
const WARMUP = Number(process.env.SOAK_WARMUP ?? Math.min(10_000, CALLS / 2));
const POSTGRES = process.argv.includes('postgres') || Boolean(process.env.BENCH_DATABASE_URL);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const GATEWAY_CORE = 0;
const LOAD_CORE = 1;
// the gateway writes spend rows every 0.5 s: a sample waits for the last batch of the calls before it
const SETTLE_MS = 1_000;

pinSelf(LOAD_CORE);
const upstream = spawnScript('gateway-soak/upstream.ts', [], { cpu: LOAD_CORE });
const children = [upstream];
const samples: Sample[] = [];
const endings = new Map<CallEnding, number>();
let upstreamStats: Record<CallKind, Record<string, number>> | undefined;
const started = new Date();
try {
  const upstreamUrl = await firstLine(upstream);
  const gateway = spawnScript('gateway-soak/gateway.ts', [upstreamUrl], {
    cpu: GATEWAY_CORE,
    env: POSTGRES ? { BENCH_DATABASE_URL: PG_URL } : {},
  });
  children.push(gateway);
  const [gatewayUrl, key, sideUrl] = (await firstLine(gateway)).split(' ') as [string, string, string];
  const pool = new Pool(gatewayUrl, { connections: CONCURRENCY });

  let done = 0;
  let served = 0;
  const t0 = performance.now();
  let lastAt = t0;
  let lastCalls = 0;
  const sample = async () => {
    const now = performance.now();
    const rps = done === 0 ? Number.NaN : (done - lastCalls) / ((now - lastAt) / 1000);
    await sleep(SETTLE_MS);
    const before = await readMem(sideUrl, { gc: false });
    const after = await readMem(sideUrl, { gc: true });
    samples.push({
      calls: done,
      served,
      failed: done - served,
      elapsed: (now - t0) / 1000,
      rps,
      before,
      after,
    });
    process.stderr.write(
      `soak:gateway: ${done} calls, heap after GC ${(after.heapUsed / 2 ** 20).toFixed(1)} MB, ` +
        `RSS ${(after.rss / 2 ** 20).toFixed(1)} MB, ${after.sockets.total} sockets\n`,
    );
    lastAt = performance.now();
    lastCalls = done;
  };

  await sample();
  while (done < CALLS) {
    const end = Math.min(CALLS, done + SAMPLE_EVERY);
    let next = done;
    const worker = async () => {
      for (let i = next++; i < end; i = next++) {
        const kind: CallKind = i % 2 === 0 ? 'plain' : 'stream';
        const ending = await gatewayCall(pool, key, kind);
        endings.set(ending, (endings.get(ending) ?? 0) + 1);
        if (ending === 'served') served++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    done = end;
    await sample();
  }
  await pool.close();
  upstreamStats = (await (await request(`${upstreamUrl}/__stats`)).body.json()) as typeof upstreamStats;
} finally {
  // the gateway first: its close writes the spend rows still pending, and its upstream must be there
  for (const child of children.reverse()) await stopChild(child);
}

const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}`;
console.log(
  `gateway soak of ${started.toISOString().slice(0, 10)}: ${machine}; ${CALLS.toLocaleString('en-US')} calls, plain and streamed in turn, ` +
    `concurrency ${CONCURRENCY}, spend on ${POSTGRES ? 'Postgres (schema svc_bench_soak)' : 'embedded PGlite'}; ` +
    (CAN_PIN ? 'gateway on core 0, upstream and driver on core 1 (taskset)' : 'not pinned'),
);
console.log();
for (const line of sampleTable(samples)) console.log(line);
console.log();
const order = [...endings].sort(([a], [b]) => a.localeCompare(b));
console.log(
  `calls ended: ${order.map(([ending, n]) => `${ending} ${n.toLocaleString('en-US')}`).join(', ')}`,
);
const answered = (kind: CallKind) =>
  Object.entries(upstreamStats?.[kind] ?? {})
    .map(([outcome, n]) => `${outcome} ${n.toLocaleString('en-US')}`)
    .join(', ');
console.log(`upstream answered: plain: ${answered('plain')}; stream: ${answered('stream')}`);
const { pass, line } = verdict(samples, WARMUP, CONCURRENCY);
console.log(line);
// num_retries 0: each call is one upstream call, so the calls served are the upstream's successes
const upstreamOk = (upstreamStats?.plain?.ok ?? 0) + (upstreamStats?.stream?.ok ?? 0);
const served = samples.at(-1)?.served ?? 0;
const odd = unexplained(endings);
if (served !== upstreamOk || odd.length > 0) {
  console.log(
    `calls: fail: ${served} served of ${upstreamOk} upstream successes; endings no upstream failure explains: ${odd.join(', ') || 'none'}`,
  );
  process.exitCode = 1;
} else
  console.log(`calls: pass: every upstream success served, every failure reached the client as an error`);
const last = samples.at(-1);
console.log(
  `wall time: ${last ? last.elapsed.toFixed(1) : 'n/a'} s for ${CALLS.toLocaleString('en-US')} calls ` +
    `(the pauses for samples included)`,
);
if (!pass) process.exitCode = 1;
