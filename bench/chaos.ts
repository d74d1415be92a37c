// bench/chaos.ts (npm run bench:chaos): does every call a healthy deployment could serve get served?
// Ten deployments of one group; five fail at random (429, 500, connection reset, hang past the timeout,
// 503) on half their calls; five are always healthy. 20,000 calls at concurrency 50, measured against an
// all-healthy run of the same router in the same way. The upstream and each client run in their own
// processes.
import { firstLine, runJson, spawnScript } from './lib/child.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 20_000);
const CONCURRENCY = 50;

interface Result {
  sent: number;
  served: number;
  attemptsPerCall: number;
  p50: number;
  p99: number;
  rps: number;
  errors: Record<string, number>;
}

const FAILING = {
  '/d1/': { status: 429, failRate: 0.5 },
  '/d2/': { status: 500, failRate: 0.5 },
  '/d3/': { fault: 'reset', failRate: 0.5 },
  '/d4/': { fault: 'hang', failRate: 0.5 },
  '/d5/': { status: 503, failRate: 0.5 },
};
const BASE = { timeout: 0.25, cooldown_time: 1 };
const RUNS: Array<{ label: string; behaviors: object; settings: object }> = [
  { label: 'all healthy', behaviors: {}, settings: BASE },
  { label: 'chaos, defaults (num_retries 2)', behaviors: FAILING, settings: BASE },
  {
    label: 'chaos, enable_weighted_failover',
    behaviors: FAILING,
    settings: { ...BASE, enable_weighted_failover: true },
  },
];

async function run(behaviors: object, settings: object): Promise<Result> {
  const upstream = spawnScript('upstream.ts', [JSON.stringify(behaviors)]);
  try {
    const url = await firstLine(upstream);
    return await runJson<Result>('chaos-client.ts', [
      url,
      String(COUNT),
      String(CONCURRENCY),
      JSON.stringify(settings),
    ]);
  } finally {
    upstream.kill('SIGTERM');
  }
}

const results: Result[] = [];
for (const { behaviors, settings } of RUNS) results.push(await run(behaviors, settings));
const healthy = results[0]!;
const pct = (r: Result) => `${((100 * r.served) / r.sent).toFixed(3)}%`;
const us = (n: number) => `${Math.round(n)}`;

console.log(
  `chaos: 10 deployments (5 failing half their calls: 429, 500, reset, hang, 503), ${COUNT} calls, concurrency ${CONCURRENCY}`,
);
console.log(`settings: timeout ${BASE.timeout} s, cooldown_time ${BASE.cooldown_time} s`);
console.log(
  '| run | served | success | attempts/call | p50 (us) | p99 (us) | added p50 (us) | added p99 (us) | errors |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
RUNS.forEach(({ label }, i) => {
  const r = results[i]!;
  console.log(
    `| ${label} | ${r.served}/${r.sent} | ${pct(r)} | ${r.attemptsPerCall.toFixed(3)} | ${us(r.p50)} | ${us(r.p99)} | ${i === 0 ? '-' : us(r.p50 - healthy.p50)} | ${i === 0 ? '-' : us(r.p99 - healthy.p99)} | ${JSON.stringify(r.errors)} |`,
  );
});
const best = results[2]!;
console.log(`ratio: ${(best.served / best.sent).toFixed(4)}`);
