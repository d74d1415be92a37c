/**
 * Calls a library client makes before it is measured (`BENCH_WARMUP`, default 15,000). A process's
 * CPU per call keeps falling for its first 12,500 calls or so, as V8 tiers the code up and the heap
 * reaches its working size: for both clients, and for the router's longer call path more (up to twice
 * the direct call's over calls 2,500 to 12,500 at concurrency 50 on Node 24). A warm-up of 2,000 calls,
 * as before the eleventh pass of #27, measured calls 2,000 to 12,000, that warm-up more than the cost
 * per call of a process that has been serving a while. bench/all.ts prints the warm-up's CPU per call
 * beside the figures.
 */
export const WARMUP_CALLS: number = warmUpCalls(process.env.BENCH_WARMUP);

function warmUpCalls(setting: string | undefined): number {
  if (setting === undefined) return 15_000;
  const calls = Number(setting);
  if (setting.trim() === '' || !Number.isInteger(calls) || calls < 0)
    throw new Error(
      `BENCH_WARMUP must be a whole number of calls (0 or more), not ${JSON.stringify(setting)}`,
    );
  return calls;
}
