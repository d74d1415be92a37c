// The gateway soak's table and verdict: memory and sockets sampled as calls go by, and whether they
// stayed flat after the warm-up.
import type { MemReading } from '../lib/mem-meter.js';

/** One sample, taken with no call in flight: a reading before and one after a full GC. */
export interface Sample {
  calls: number;
  served: number;
  failed: number;
  /** Seconds since the first call (the pauses for samples included). */
  elapsed: number;
  /** Calls per second over the calls since the previous sample (NaN for the first sample). */
  rps: number;
  before: MemReading;
  after: MemReading;
}

/** How much each figure may grow after the warm-up (see verdict). */
export const BOUNDS = {
  /** Heap after a full GC: live data, the figure a leak moves. */
  heapGrowth: 0.1,
  rssGrowth: 0.1,
  /**
   * Open sockets more than at the warm-up, as a share of the concurrency: the gateway's pooled upstream
   * connections come and go with the calls in flight (each reset or cut answer ends one), while a leak
   * of one socket per failed call would add thousands.
   */
  socketsMorePerConcurrency: 0.5,
};

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const count = (n: number) => n.toLocaleString('en-US');

/** The Markdown table, one row per sample. */
export function sampleTable(samples: readonly Sample[]): string[] {
  const lines = [
    '| calls | served | failed | heap after GC (MB) | heap before GC (MB) | RSS (MB) | external (MB) | array buffers (MB) | open sockets (in / up / other) | req/s since last | elapsed (s) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of samples) {
    const { sockets } = s.after;
    lines.push(
      `| ${count(s.calls)} | ${count(s.served)} | ${count(s.failed)} | ${mb(s.after.heapUsed)} | ${mb(s.before.heapUsed)} | ${mb(s.after.rss)} | ${mb(s.after.external)} | ${mb(s.after.arrayBuffers)} | ${sockets.total} (${sockets.inbound} / ${sockets.upstream} / ${sockets.other}) | ${Number.isFinite(s.rps) ? s.rps.toFixed(0) : ''} | ${s.elapsed.toFixed(1)} |`,
    );
  }
  return lines;
}

/**
 * Growth to the last sample from the lowest one from `warmup` calls on, for each figure, against BOUNDS.
 * From the lowest, not the first: a fresh PGlite's RSS holds its initdb's WebAssembly memory until the
 * worker thread's next full GC, which comes when it likes (tens of seconds in), and a drop of that
 * size must not hide growth after it.
 */
export function verdict(
  samples: readonly Sample[],
  warmup: number,
  concurrency: number,
): { pass: boolean; line: string } {
  const after = samples.filter((s) => s.calls >= warmup && s.calls > 0);
  const last = after.at(-1);
  if (after.length < 2 || !last)
    return { pass: false, line: `verdict: fail: no two samples after the warm-up of ${count(warmup)} calls` };
  const lowest = (pick: (r: MemReading) => number) => Math.min(...after.map((s) => pick(s.after)));
  const growth = (pick: (r: MemReading) => number) => pick(last.after) / lowest(pick) - 1;
  const heap = growth((r) => r.heapUsed);
  const rss = growth((r) => r.rss);
  const sockets = (r: MemReading) => r.sockets.total;
  const socketsMore = sockets(last.after) - lowest(sockets);
  const socketsBound = Math.round(concurrency * BOUNDS.socketsMorePerConcurrency);
  const pass = heap < BOUNDS.heapGrowth && rss < BOUNDS.rssGrowth && socketsMore <= socketsBound;
  const pct = (n: number) => `${n >= 0 ? '+' : ''}${(n * 100).toFixed(1)}%`;
  const line =
    `verdict: ${pass ? 'pass' : 'fail'}: last sample (${count(last.calls)} calls) against the lowest from ` +
    `${count(after[0]!.calls)} calls on: heap after GC ${pct(heap)} (${mb(lowest((r) => r.heapUsed))} to ` +
    `${mb(last.after.heapUsed)} MB), RSS ${pct(rss)} (${mb(lowest((r) => r.rss))} to ${mb(last.after.rss)} MB), ` +
    `open sockets ${lowest(sockets)} to ${sockets(last.after)}; bounds: heap and RSS growth under ` +
    `${BOUNDS.heapGrowth * 100}%, open sockets at most ${socketsBound} more (half the concurrency)`;
  return { pass, line };
}

/**
 * The endings no upstream failure explains: anything but `served`, an HTTP status, or a stream's in-band
 * error event (a connection the gateway dropped, a 200 answer that was not whole).
 */
export function unexplained(endings: ReadonlyMap<string, number>): string[] {
  return [...endings.keys()].filter(
    (ending) =>
      ending !== 'served' && ending !== 'stream error frame' && !/^(plain|stream) \d{3}$/.test(ending),
  );
}
