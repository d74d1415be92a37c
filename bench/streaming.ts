// bench/streaming.ts (npm run bench:streaming): time to first chunk of a streamed answer through the
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
}

const upstream = spawnScript('upstream.ts', []);
const url = await firstLine(upstream);
const rows: string[] = [];
let worst = 0;
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
    const added = p('router', 'p50') - p('direct', 'p50');
    worst = Math.max(worst, added);
    rows.push(
      `| ${format} | ${p('direct', 'p50').toFixed(3)} | ${p('direct', 'p99').toFixed(3)} | ${p('router', 'p50').toFixed(3)} | ${p('router', 'p99').toFixed(3)} | ${added.toFixed(3)} |`,
    );
  }
} finally {
  upstream.kill('SIGTERM');
}
console.log(
  `time to first chunk, one call at a time, ${COUNT} calls x ${ROUNDS} rounds per format (ms, medians of rounds)`,
);
console.log('| format | direct p50 | direct p99 | router p50 | router p99 | added p50 |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
console.log(`max added p50 (ms): ${worst.toFixed(3)}`);
