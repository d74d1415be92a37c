/**
 * Calls a library client makes before it is measured (`BENCH_WARMUP`, default 15,000). A process's
 * CPU per call keeps falling for its first 12,500 calls or so, as V8 tiers the code up and the heap
 * reaches its working size: for both clients, and for the router's longer call path more (up to twice
 * the direct call's over calls 2,500 to 12,500 at concurrency 50 on Node 24). A warm-up of 2,000 calls,
 * as before the eleventh pass of #27, measured calls 2,000 to 12,000, that warm-up more than the cost
 * per call of a process that has been serving a while. bench/all.ts prints the warm-up's CPU per call
 * beside the figures.
 */
export const WARMUP_CALLS: number = wholeNumber('BENCH_WARMUP', 'calls', 15_000);

/**
 * Seconds of load at `GATEWAY_WARMUP_CONNECTIONS` each gateway bench gives a server in each mode before
 * it measures (`BENCH_GATEWAY_WARMUP`, default 20): bench, bench:proxy, bench:profile, bench:ab, the
 * pass-through and Portkey alike. V8 compiles the gateway's call path for about a minute of saturated
 * load: in the 5 s after a warm-up of 2 s it finished 388 optimizing compilations, on its worker
 * threads, which share the measured core; in 10 s 30 s in, 156; from 40 s on, 1 to 20 per 10 s. A
 * mode's CPU per call reached its level after about 15 s of that mode's load, while the pass-through,
 * a few functions, was warm within seconds: a gateway measured after 1 or 2 s was measured compiling,
 * not serving as it does once it has served a while ("The gateway's warm-up", docs/benchmarks.md).
 * `npm run bench` gives this to each target (virtual key, JWT) and mode, 80 s a gateway server in all.
 */
export const GATEWAY_WARMUP_SECONDS: number = wholeNumber('BENCH_GATEWAY_WARMUP', 'seconds', 20);
/** Connections of the gateway warm-up: the busier of the benches' cells, so the code is the same. */
export const GATEWAY_WARMUP_CONNECTIONS = 50;

function wholeNumber(name: string, unit: string, fallback: number): number {
  const setting = process.env[name];
  if (setting === undefined) return fallback;
  const value = Number(setting);
  if (setting.trim() === '' || !Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a whole number of ${unit} (0 or more), not ${JSON.stringify(setting)}`);
  return value;
}
