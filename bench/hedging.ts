// bench/hedging.ts (npm run bench:hedging): what request hedging does to the latency tail. Two
// deployments of one group on the mock provider answer in BASE_MS; one of them answers SLOW_MS late
// 10% of the time (the mock's seeded `slowRate`). Calls are spread over both with simple-shuffle (a
// seeded random), CONCURRENCY at a time, and measured end to end: without hedging, with
// `hedge_after` fixed, and with `hedge_after: "p95"`. Printed as a Markdown table, with the upstream
// requests per call (what the hedges cost). BENCH_CALLS sets the number of calls per mode.
import { Router, type RouterSettings } from '../src/index.js';
import { seededRandom, startMockProvider } from '../src/testing/index.js';
import { load, quantile } from './lib/stats.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const CONCURRENCY = 20;
const BASE_MS = 20;
const SLOW_MS = 500;
const SLOW_RATE = 0.1;

const mock = await startMockProvider({ record: false, seed: 7 });
mock.setBehavior('/steady', { delayMs: BASE_MS });
mock.setBehavior('/flaky', { delayMs: BASE_MS, slowRate: SLOW_RATE, slowMs: SLOW_MS });

const deployments = ['steady', 'flaky'].map((name) => ({
  model_name: 'gpt-4o',
  svc_params: { model: 'openai/gpt-4o', api_base: `${mock.url}/${name}/v1`, api_key: `sk-bench-${name}` },
  model_info: { id: name },
}));

const modes: [string, RouterSettings][] = [
  ['no hedging', {}],
  ['hedge_after: 0.05 (50 ms)', { hedge_after: 0.05 }],
  ['hedge_after: "p95"', { hedge_after: 'p95' }],
];

const ms = (us: number) => `${(us / 1000).toFixed(1)} ms`;
const rows: string[] = [];
for (const [name, settings] of modes) {
  const router = new Router(deployments, settings, { random: seededRandom(42) });
  const ask = () => router.acompletion({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  for (let i = 0; i < 50; i++) await ask(); // warm-up (and, for "p95", a latency history)
  const warm = mock.hits('/');
  const { latenciesUs } = await load(CALLS, CONCURRENCY, ask);
  const perCall = (mock.hits('/') - warm) / CALLS;
  await router.close();
  const q = (p: number) => ms(quantile(latenciesUs, p));
  rows.push(
    `| ${name} | ${q(0.5)} | ${q(0.95)} | ${q(0.99)} | ${ms(latenciesUs[latenciesUs.length - 1]!)} | ${perCall.toFixed(3)} |`,
  );
}
await mock.close();

console.log(
  `\n${CALLS} calls per mode, ${CONCURRENCY} at a time; two deployments answering in ${BASE_MS} ms, one of them ${SLOW_MS} ms late ${SLOW_RATE * 100}% of the time\n`,
);
console.log('| mode | p50 | p95 | p99 | max | upstream requests per call |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
