// bench/cache.ts (npm run bench:cache): what a response-cache hit costs, in CPU per call, next to a
// direct undici call to the same mock upstream (the baseline: what a miss costs at the least).
// One process, calls one at a time, so CPU per call is the client's own work. Prints rounds' medians.
import { Router } from '@svc/router';
import { Pool } from 'undici';
import { firstLine, spawnScript } from './lib/child.js';
import { load, median, quantile } from './lib/stats.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const messages = [{ role: 'user' as const, content: 'Say hello.' }];

const upstream = spawnScript('upstream.ts', []);
const url = await firstLine(upstream);
const pool = new Pool(url);
const router = new Router(
  [
    {
      model_name: 'gpt-4o',
      svc_params: { model: 'openai/gpt-4o', api_base: `${url}/v1`, api_key: 'sk-bench-key' },
    },
  ],
  { cache_responses: true },
);
const direct = async () => {
  const res = await pool.request({
    path: '/v1/chat/completions',
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-key' },
    body: JSON.stringify({ model: 'gpt-4o', messages }),
  });
  return res.body.json();
};
const hit = () => router.acompletion({ model: 'gpt-4o', messages });

const rows: Record<'direct' | 'hit', { cpu: number; p50: number; p99: number }[]> = { direct: [], hit: [] };
try {
  await hit(); // the one miss that fills the cache
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, task] of [
      ['direct', direct],
      ['hit', hit],
    ] as const) {
      await load(Math.min(2000, COUNT), 1, task); // warm-up
      const r = await load(COUNT, 1, task);
      rows[name].push({
        cpu: r.cpuUsPerCall,
        p50: quantile(r.latenciesUs, 0.5),
        p99: quantile(r.latenciesUs, 0.99),
      });
    }
  }
} finally {
  await router.close();
  await pool.close();
  upstream.kill('SIGTERM');
}
const fmt = (n: number) => n.toFixed(1).padStart(8);
const summary = (name: 'direct' | 'hit') => ({
  cpu: median(rows[name].map((r) => r.cpu)),
  p50: median(rows[name].map((r) => r.p50)),
  p99: median(rows[name].map((r) => r.p99)),
});
console.log(`cache: ${COUNT} calls x ${ROUNDS} rounds, one at a time, medians of rounds`);
console.log('| call | CPU/call (us) | p50 (us) | p99 (us) |');
console.log('|---|---:|---:|---:|');
for (const [label, name] of [
  ['direct undici call (baseline)', 'direct'],
  ['router.acompletion, cache hit', 'hit'],
] as const) {
  const s = summary(name);
  console.log(`| ${label} | ${fmt(s.cpu)} | ${fmt(s.p50)} | ${fmt(s.p99)} |`);
}
console.log(`cache hit CPU/call (us): ${summary('hit').cpu.toFixed(1)} (target <= 20)`);
