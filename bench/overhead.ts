// bench/overhead.ts (npm run bench:overhead): the router's added cost per call.
// router.acompletion vs a direct undici request to the same upstream, each client in its own process,
// alternating rounds so that machine noise falls on both alike. Prints the medians over rounds. A third
// client, undici's dispatch() collecting the body with nothing else, shows the floor under both.
// The upstream answers a fixed body and costs far less CPU per call than either client, so at
// concurrency 50 each client is CPU-bound and req/s measures the client's own work.
import { firstLine, runJson, spawnScript } from './lib/child.js';
import { median } from './lib/stats.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 20_000);
const CONCURRENCY = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// one call at a time: no queueing, so the latency difference is the router's own time per call
const SERIAL_COUNT = Number(process.env.BENCH_SERIAL_COUNT ?? 5_000);

interface Result {
  mode: string;
  rps: number;
  p50: number;
  p99: number;
  cpuUsPerCall: number;
}

const upstream = spawnScript('fast-upstream.ts', []);
const url = await firstLine(upstream);
type Mode = 'direct' | 'floor' | 'router';
const runs: Record<Mode, Result[]> = { direct: [], floor: [], router: [] };
const serial: Record<Mode, Result[]> = { direct: [], floor: [], router: [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0
      ? (['direct', 'floor', 'router'] as const)
      : (['router', 'floor', 'direct'] as const)) {
      runs[mode].push(
        await runJson<Result>('overhead-client.ts', [mode, url, String(COUNT), String(CONCURRENCY)]),
      );
      serial[mode].push(await runJson<Result>('overhead-client.ts', [mode, url, String(SERIAL_COUNT), '1']));
    }
  }
} finally {
  upstream.kill('SIGTERM');
}

const summary = (from: Record<Mode, Result[]>, mode: Mode) => ({
  rps: median(from[mode].map((r) => r.rps)),
  p50: median(from[mode].map((r) => r.p50)),
  p99: median(from[mode].map((r) => r.p99)),
  cpu: median(from[mode].map((r) => r.cpuUsPerCall)),
});
const direct = summary(runs, 'direct');
const floor = summary(runs, 'floor');
const router = summary(runs, 'router');
const serialDirect = summary(serial, 'direct');
const serialFloor = summary(serial, 'floor');
const serialRouter = summary(serial, 'router');
const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(10);

console.log(`overhead: ${COUNT} calls x ${ROUNDS} rounds, concurrency ${CONCURRENCY}, medians of rounds`);
console.log('| client | req/s | p50 (us) | p99 (us) | client CPU/call (us) |');
console.log('|---|---:|---:|---:|---:|');
console.log(
  `| direct undici | ${fmt(direct.rps)} | ${fmt(direct.p50)} | ${fmt(direct.p99)} | ${fmt(direct.cpu, 1)} |`,
);
console.log(
  `| undici dispatch (floor) | ${fmt(floor.rps)} | ${fmt(floor.p50)} | ${fmt(floor.p99)} | ${fmt(floor.cpu, 1)} |`,
);
console.log(
  `| router.acompletion | ${fmt(router.rps)} | ${fmt(router.p50)} | ${fmt(router.p99)} | ${fmt(router.cpu, 1)} |`,
);
console.log(
  `| added over direct | | ${fmt(router.p50 - direct.p50)} | ${fmt(router.p99 - direct.p99)} | ${fmt(router.cpu - direct.cpu, 1)} |`,
);
console.log(
  `| added over the floor | | ${fmt(router.p50 - floor.p50)} | ${fmt(router.p99 - floor.p99)} | ${fmt(router.cpu - floor.cpu, 1)} |`,
);
console.log();
console.log(
  `one call at a time (${SERIAL_COUNT} calls x ${ROUNDS} rounds): the router's own latency per call`,
);
console.log('| client | req/s | p50 (us) | p99 (us) |');
console.log('|---|---:|---:|---:|');
console.log(
  `| direct undici | ${fmt(serialDirect.rps)} | ${fmt(serialDirect.p50)} | ${fmt(serialDirect.p99)} |`,
);
console.log(
  `| undici dispatch (floor) | ${fmt(serialFloor.rps)} | ${fmt(serialFloor.p50)} | ${fmt(serialFloor.p99)} |`,
);
console.log(
  `| router.acompletion | ${fmt(serialRouter.rps)} | ${fmt(serialRouter.p50)} | ${fmt(serialRouter.p99)} |`,
);
console.log(
  `| added over direct | | ${fmt(serialRouter.p50 - serialDirect.p50)} | ${fmt(serialRouter.p99 - serialDirect.p99)} |`,
);
console.log();
console.log(`floor ratio (router req/s / floor req/s): ${(router.rps / floor.rps).toFixed(3)}`);
console.log(`cpu ratio (direct CPU/call / router CPU/call): ${(direct.cpu / router.cpu).toFixed(3)}`);
console.log(`ratio: ${(router.rps / direct.rps).toFixed(3)}`);
