// bench/streaming.ts (npm run bench:streaming): time to first token of a streamed answer through the
// router vs a direct undici request, for every provider wire format (OpenAI SSE, Anthropic SSE, Gemini
// SSE, Bedrock's binary event stream), against the mock upstream in its own process.
import { firstLine, runJson, spawnScript } from './lib/child.js';
import { median } from './lib/stats.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FORMATS = ['openai', 'anthropic', 'gemini', 'bedrock'] as const;

interface Result {
  p50: number;
  p99: number;
  /** client CPU per streamed call, read to its end (µs) */
  cpuUs: number;
  /** calls per second, one at a time */
  rps: number;
}

const upstream = spawnScript('upstream.ts', []);
const url = await firstLine(upstream);
const rows: string[] = [];
let worst = 0;
let worstRatio = Number.POSITIVE_INFINITY;
try {
  for (const format of FORMATS) {
    const runs: Record<'direct' | 'router', Result[]> = { direct: [], router: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of round % 2 === 0
        ? (['direct', 'router'] as const)
        : (['router', 'direct'] as const)) {
        runs[mode].push(await runJson<Result>('streaming-client.ts', [format, mode, url, String(COUNT)]));
      }
    }
    const p = (mode: 'direct' | 'router', q: 'p50' | 'p99') => median(runs[mode].map((r) => r[q])) / 1000;
    const m = (mode: 'direct' | 'router', q: 'cpuUs' | 'rps') => median(runs[mode].map((r) => r[q]));
    const added = p('router', 'p50') - p('direct', 'p50');
    const ratio = m('router', 'rps') / m('direct', 'rps');
    worst = Math.max(worst, added);
    worstRatio = Math.min(worstRatio, ratio);
    rows.push(
      `| ${format} | ${p('direct', 'p50').toFixed(3)} | ${p('direct', 'p99').toFixed(3)} | ${p('router', 'p50').toFixed(3)} | ${p('router', 'p99').toFixed(3)} | ${added.toFixed(3)} | ${m('direct', 'cpuUs').toFixed(1)} | ${m('router', 'cpuUs').toFixed(1)} | ${ratio.toFixed(3)} |`,
    );
  }
} finally {
  upstream.kill('SIGTERM');
}
console.log(
  `time to first token, one call at a time, ${COUNT} calls x ${ROUNDS} rounds per format (ms, medians of rounds)`,
);
console.log(
  '| format | direct p50 | direct p99 | router p50 | router p99 | added p50 | direct CPU/call (µs) | router CPU/call (µs) | ratio |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
console.log(
  'CPU/call: the client process, each stream read to its end; ratio: router calls/s over direct, serial',
);
console.log(`max added p50 (ms): ${worst.toFixed(3)}`);
console.log(`streaming ratio (lowest): ${worstRatio.toFixed(3)}`);
