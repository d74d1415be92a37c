/** Latencies kept per group for `hedge_after: "p95"`. */
export const LATENCY_WINDOW_SIZE = 100;
/** Fewer observations than this say nothing about a tail: no hedge until a group has them. */
export const MIN_LATENCY_SAMPLES = 20;

/**
 * The last `LATENCY_WINDOW_SIZE` latencies of one group (ms), and a quantile of them. The quantile is
 * computed again only after new observations, so a call reads it at the cost of a field access.
 */
export class LatencyWindow {
  readonly #values: number[] = [];
  #next = 0;
  #cached: { q: number; value: number | undefined } | undefined;

  constructor(private readonly size = LATENCY_WINDOW_SIZE) {}

  /** Records one latency (ms). */
  add(ms: number): void {
    if (this.#values.length < this.size) this.#values.push(ms);
    else this.#values[this.#next] = ms;
    this.#next = (this.#next + 1) % this.size;
    this.#cached = undefined;
  }

  get count(): number {
    return this.#values.length;
  }

  /**
   * The `q` quantile (0..1, nearest rank) of the window, or undefined with fewer than `minSamples`.
   *
   * @example window.quantile(0.95) // => 812 once 20 latencies were recorded
   */
  quantile(q: number, minSamples = MIN_LATENCY_SAMPLES): number | undefined {
    if (this.#cached?.q === q) return this.#cached.value;
    const n = this.#values.length;
    let value: number | undefined;
    if (n >= minSamples) {
      const sorted = [...this.#values].sort((a, b) => a - b);
      value = sorted[Math.min(n - 1, Math.ceil(q * n) - 1)];
    }
    this.#cached = { q, value };
    return value;
  }
}

/** Latency windows by group name, held for a router's lifetime (they survive settings changes). */
export type LatencyWindows = Map<string, LatencyWindow>;
