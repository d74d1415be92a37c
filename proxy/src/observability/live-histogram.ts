import type { Registry } from 'prom-client';

interface Series {
  labels: Record<string, string>;
  /** Observations per bucket (not cumulative): `counts[i]` fell in `(buckets[i-1], buckets[i]]`. */
  counts: number[];
  sum: number;
  count: number;
}

/** One exported sample, in the shape prom-client's registry formats. */
interface Sample {
  value: number;
  metricName: string;
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
}

/** Series by their first label's value, then the next's: a leaf holds the series. */
type SeriesTree = Map<string, SeriesTree | Series>;

/**
 * A Prometheus histogram fed on every call: a series is found with a Map lookup per label and an
 * observation costs a bucket search. The lookups are by the label values themselves (route patterns,
 * model names: strings whose hash V8 has already computed), not by a key joined from them, which
 * was a new string to hash on every call. prom-client's own `observe` validates and hashes the label object on every
 * call, a few µs per request on the gateway's path. Registered in a prom-client registry as a custom
 * metric, it is exported exactly as prom-client's histograms are (`_bucket` with `le`, `+Inf`,
 * `_sum`, `_count`).
 */
export class LiveHistogram<Label extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series: SeriesTree = new Map();
  readonly #all: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly Label[],
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  observe(labels: Readonly<Record<Label, string>>, value: number): void {
    const series = this.#seriesOf(labels);
    const { buckets } = this;
    let i = 0;
    while (i < buckets.length && value > buckets[i]!) i++;
    if (i < buckets.length) series.counts[i]!++;
    series.sum += value;
    series.count++;
  }

  #seriesOf(labels: Readonly<Record<Label, string>>): Series {
    const names = this.labelNames;
    let node = this.#series;
    for (let i = 0; i < names.length - 1; i++) {
      const value = labels[names[i]!];
      let next = node.get(value) as SeriesTree | undefined;
      if (!next) {
        next = new Map();
        node.set(value, next);
      }
      node = next;
    }
    const last = labels[names[names.length - 1]!];
    let series = node.get(last) as Series | undefined;
    if (!series) {
      const own: Record<string, string> = {};
      for (const name of names) own[name] = labels[name];
      series = { labels: own, counts: new Array<number>(this.buckets.length).fill(0), sum: 0, count: 0 };
      node.set(last, series);
      this.#all.push(series);
    }
    return series;
  }

  /** The samples, as prom-client's registry reads a metric on a scrape. */
  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }> {
    const values: Sample[] = [];
    const bucket = `${this.name}_bucket`;
    for (const { labels, counts, sum, count } of this.#all) {
      let cumulative = 0;
      for (let i = 0; i < this.buckets.length; i++) {
        cumulative += counts[i]!;
        values.push({
          value: cumulative,
          metricName: bucket,
          labels: { le: this.buckets[i]! },
          sharedLabels: labels,
        });
      }
      values.push({ value: count, metricName: bucket, labels: { le: '+Inf' }, sharedLabels: labels });
      values.push({ value: sum, metricName: `${this.name}_sum`, labels: {}, sharedLabels: labels });
      values.push({ value: count, metricName: `${this.name}_count`, labels: {}, sharedLabels: labels });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.#series.clear();
    this.#all.length = 0;
  }
}
