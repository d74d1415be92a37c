/** The q-quantile (0..1) of sorted numbers. */
export function quantile(sorted: Float64Array | number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))));
  return sorted[index]!;
}

/** The median of a few numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return quantile(sorted, 0.5);
}

/** The middle one of `items` ordered by `by` (the lower middle of an even count): a median run or round. */
export function medianBy<T>(items: readonly T[], by: (item: T) => number): T {
  return [...items].sort((a, b) => by(a) - by(b))[Math.floor((items.length - 1) / 2)]!;
}

/** Runs `task` `count` times with `concurrency` workers; returns latencies (µs, sorted) and wall time. */
export async function load(
  count: number,
  concurrency: number,
  task: () => Promise<unknown>,
): Promise<{ latenciesUs: Float64Array; seconds: number; cpuUsPerCall: number }> {
  const latencies = new Float64Array(count);
  let next = 0;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const t0 = performance.now();
      await task();
      latencies[i] = (performance.now() - t0) * 1000;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  latencies.sort();
  return { latenciesUs: latencies, seconds, cpuUsPerCall: (cpu.user + cpu.system) / count };
}

/**
 * Starts `task` `count` times at `perSecond`, whatever pace the answers come at (an open loop, as
 * independent users make: a slow answer does not hold the next call back), calls due in the same
 * timer turn started together. Each latency runs from the call's start. Returns them in µs, sorted.
 */
export async function paced(
  count: number,
  perSecond: number,
  task: () => Promise<unknown>,
): Promise<Float64Array> {
  const latencies = new Float64Array(count);
  const gapMs = 1000 / perSecond;
  const calls: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < count; ) {
    const now = performance.now();
    for (; i < count && start + i * gapMs <= now; i++) {
      const index = i;
      const t0 = performance.now();
      calls.push(
        task().then(() => {
          latencies[index] = (performance.now() - t0) * 1000;
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + i * gapMs - performance.now())));
  }
  await Promise.all(calls);
  return latencies.sort();
}
