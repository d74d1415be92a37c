// What a spend row costs to write, on embedded PGlite (its worker thread) and on Postgres.
// Isolation: `writeSpendBatch` called back to back with batches of 1, 20, 200 and 1000 rows (or
// BENCH_SPEND_BATCHES); per row, the wall time and this process's CPU (process.cpuUsage counts the
// PGlite worker thread), and on a local Postgres the server's own CPU beside it (every `postgres`
// process, from /proc: the backends and the server's writers), so that the two engines compare at what
// a row costs the machine. Under load: a SpendWriter fed `BENCH_SPEND_RATE` rows/s (default 3000, a
// busy gateway) for `BENCH_SPEND_SECONDS` (default 4), batched as the proxy batches (1000 rows;
// BENCH_SPEND_WRITER_BATCH sets another), while the table already holds the rows written so far; per
// row, the process CPU over the run less the CPU its 1 ms feeding ticks cost alone, and the server's.
// Prints a markdown table and, last, a JSON line (what bench/all.ts reads).
// Env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; `none` skips Postgres);
// BENCH_SPEND_PREFILL: rows written before anything is measured (default 0: an empty log), so that a
// row is measured going into a log of that size; BENCH_SPEND_IDS=random: call ids as random (version 4)
// UUIDs, as the gateway made them before it made them time-ordered (http/call-id.ts).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../proxy/src/db/database.js';
import { migrate } from '../proxy/src/db/migrate.js';
import { openDatabase } from '../proxy/src/db/open-database.js';
import { type SpendLogRow, writeSpendBatch } from '../proxy/src/db/spend-repo.js';
import { newCallId } from '../proxy/src/http/call-id.js';
import { SPEND_BATCH_ROWS, SpendWriter } from '../proxy/src/spend/spend-writer.js';
import { cpuSince, processesCpu } from './lib/proc-cpu.js';

export interface SpendFigures {
  engine: 'pglite' | 'postgres';
  /**
   * Batch size → µs per row: wall, this process's CPU, and the database server's CPU (0 on PGlite, whose
   * engine is in the process; NaN for a Postgres that is not on this machine).
   */
  isolated: Record<number, { wallUs: number; cpuUs: number; serverUs: number }>;
  loaded: { rate: number; batch: number; rows: number; cpuUs: number; wallUs: number; serverUs: number };
}

const RATE = Number(process.env.BENCH_SPEND_RATE ?? 3000);
const SECONDS = Number(process.env.BENCH_SPEND_SECONDS ?? 4);
const ISOLATED_ROWS = Number(process.env.BENCH_SPEND_ROWS ?? 4000);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const KEY_HASH = 'bench-spend-key';
const BATCHES = (process.env.BENCH_SPEND_BATCHES ?? '1,20,200,1000').split(',').map(Number);
const WRITER_BATCH = process.env.BENCH_SPEND_WRITER_BATCH
  ? Number(process.env.BENCH_SPEND_WRITER_BATCH)
  : undefined;

const PREFILL = Number(process.env.BENCH_SPEND_PREFILL ?? 0);
const callId = process.env.BENCH_SPEND_IDS === 'random' ? randomUUID : newCallId;

function row(): SpendLogRow {
  const now = Date.now();
  return {
    call_id: callId(),
    key_hash: KEY_HASH,
    user_id: null,
    team_id: null,
    organization_id: null,
    end_user: null,
    model_group: 'gpt-4o',
    model_id: 'bench-0',
    provider: 'openai',
    route: '/v1/chat/completions',
    prompt_tokens: 12,
    completion_tokens: 9,
    total_tokens: 21,
    cost: 0.000123,
    status: 'success',
    error_code: null,
    http_status: 200,
    latency_ms: 1.2,
    cache_hit: false,
    stream: false,
    start_time: new Date(now - 1),
    end_time: new Date(now),
    trace_id: null,
    usage_estimated: false,
    priced: true,
    tags: null,
  };
}

const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

const POSTGRES_IS_LOCAL = (() => {
  if (PG_URL === 'none') return false;
  const host = new URL(PG_URL).hostname;
  return ['', 'localhost', '127.0.0.1', '[::1]'].includes(host);
})();

/**
 * Reads the database server's CPU around a run: `used()` is what it spent since (µs); 0 on PGlite
 * (counted in the process's own CPU), NaN for a Postgres elsewhere.
 */
function serverMeter(engine: SpendFigures['engine']): { used(): number } {
  if (engine === 'pglite') return { used: () => 0 };
  if (!POSTGRES_IS_LOCAL) return { used: () => Number.NaN };
  const before = processesCpu('postgres');
  return { used: () => cpuSince(before, 'postgres') };
}

async function isolated(db: Database, batch: number): Promise<SpendFigures['isolated'][number]> {
  const batches = Math.max(5, Math.floor(ISOLATED_ROWS / batch / (batch === 1 ? 4 : 1)));
  for (let i = 0; i < 3; i++) await writeSpendBatch(db, Array.from({ length: batch }, row)); // warm-up
  const rows = Array.from({ length: batches }, () => Array.from({ length: batch }, row));
  const server = serverMeter(db.engine);
  const cpu0 = cpuNow();
  const t0 = performance.now();
  for (const b of rows) await writeSpendBatch(db, b);
  const n = batches * batch;
  return {
    wallUs: ((performance.now() - t0) * 1000) / n,
    cpuUs: (cpuNow() - cpu0) / n,
    serverUs: server.used() / n,
  };
}

async function loaded(db: Database): Promise<SpendFigures['loaded']> {
  // the proxy's batch size (SpendWriter's default), unless BENCH_SPEND_WRITER_BATCH sets one
  const batch = WRITER_BATCH ?? SPEND_BATCH_ROWS;
  const writer = new SpendWriter(db, { batchSize: batch });
  const total = Math.round(RATE * SECONDS);
  const server = serverMeter(db.engine);
  const cpu0 = cpuNow();
  const t0 = performance.now();
  // rows come in ticks of 1 ms, as a gateway's calls end
  let added = 0;
  while (added < total) {
    const due = Math.min(total, Math.round(((performance.now() - t0) / 1000) * RATE));
    while (added < due) {
      writer.add(row());
      added++;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await writer.close({ deadlineMs: 60_000 });
  const wallUs = (performance.now() - t0) * 1000;
  const used = cpuNow() - cpu0;
  const serverUs = server.used() / total;
  // the 1 ms ticks cost CPU of their own: measured alone and taken off
  const idleCpu0 = cpuNow();
  const idle0 = performance.now();
  while (performance.now() - idle0 < 500) await new Promise((resolve) => setTimeout(resolve, 1));
  const idlePerUs = (cpuNow() - idleCpu0) / ((performance.now() - idle0) * 1000);
  const cpu = used - idlePerUs * wallUs;
  return {
    rate: RATE,
    batch,
    rows: writer.stats().written,
    cpuUs: cpu / total,
    wallUs: wallUs / total,
    serverUs,
  };
}

async function measure(engine: SpendFigures['engine']): Promise<SpendFigures> {
  const dataDir = engine === 'pglite' ? await mkdtemp(join(tmpdir(), 'svc-bench-spend-')) : undefined;
  const db = await openDatabase(
    engine === 'pglite' ? { dataDir } : { url: PG_URL, schema: `svc_bench_spend_${process.pid}` },
  );
  try {
    await migrate(db);
    await db.query('INSERT INTO svc_keys (key_hash) VALUES ($1) ON CONFLICT (key_hash) DO NOTHING', [
      KEY_HASH,
    ]);
    const figures: SpendFigures = {
      engine,
      isolated: {},
      loaded: { rate: 0, batch: 0, rows: 0, cpuUs: 0, wallUs: 0, serverUs: 0 },
    };
    for (let filled = 0; filled < PREFILL; filled += 1000)
      await writeSpendBatch(db, Array.from({ length: Math.min(1000, PREFILL - filled) }, row));
    for (const batch of BATCHES) figures.isolated[batch] = await isolated(db, batch);
    figures.loaded = await loaded(db);
    return figures;
  } finally {
    if (engine === 'postgres') await db.query(`DROP SCHEMA svc_bench_spend_${process.pid} CASCADE`);
    await db.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

/** What a row costs the database server, after the process's CPU: none on PGlite, `?` when unknown. */
const serverPart = (engine: SpendFigures['engine'], us: number) =>
  engine === 'pglite' ? '' : Number.isFinite(us) ? ` + ${us.toFixed(0)}` : ' + ?';

/** The markdown table of the figures. */
export function spendTable(all: SpendFigures[]): string {
  const batches = Object.keys(all[0]?.isolated ?? {}).map(Number);
  const lines = [
    `| engine | ${batches.map((b) => `batch of ${b}: wall / CPU (+ server) (µs/row)`).join(' | ')} | SpendWriter under load: CPU (+ server) (µs/row) |`,
    `|---|${batches.map(() => '---:|').join('')}---:|`,
  ];
  for (const s of all) {
    const f = (x: SpendFigures['isolated'][number] | undefined) =>
      x ? `${x.wallUs.toFixed(0)} / ${x.cpuUs.toFixed(0)}${serverPart(s.engine, x.serverUs)}` : '';
    lines.push(
      `| ${s.engine} | ${batches.map((b) => f(s.isolated[b])).join(' | ')} | ${s.loaded.cpuUs.toFixed(1)}${serverPart(s.engine, s.loaded.serverUs)} (${s.loaded.rate} rows/s, batches of ${s.loaded.batch}) |`,
    );
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const engines: SpendFigures['engine'][] = PG_URL === 'none' ? ['pglite'] : ['pglite', 'postgres'];
  const all: SpendFigures[] = [];
  for (const engine of engines) all.push(await measure(engine));
  console.log(spendTable(all));
  console.log(JSON.stringify(all));
}
