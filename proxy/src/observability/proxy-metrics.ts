import type { DeliveryStats, Router, RouterMetricsSnapshot, SuccessEvent } from '@svc/router';
import { Counter, Gauge, Registry } from 'prom-client';
import type { SpendStats } from '../proxy-context.js';
import { LiveHistogram } from './live-histogram.js';

/** The labels of every per-deployment series: bounded by the config, never a key, user or team. */
const DEPLOYMENT = ['model_group', 'model_id', 'provider'] as const;
const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const TTFT_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The proxy's Prometheus metrics: what `GET /metrics` renders. */
export interface ProxyMetrics {
  readonly contentType: string;
  /** The text exposition, from one snapshot of the router's counters. */
  render(): Promise<string>;
  /** One HTTP request answered: `route` is the route's pattern (`/v1/chat/completions`), never its URL. */
  observeHttp(route: string, method: string, status: number, seconds: number): void;
}

export interface ProxyMetricsSources {
  router: Router;
  spendStats(): SpendStats;
  /** The `callbacks` destinations' delivery counts, in config order. @default none */
  recordStats?(): DeliveryStats[];
}

type Row = RouterMetricsSnapshot['deployments'][number];
type Labels = Record<(typeof DEPLOYMENT)[number], string>;

const labelsOf = (d: Row): Labels => ({
  model_group: d.model_group,
  model_id: d.model_id,
  provider: d.provider,
});

type Read = () => RouterMetricsSnapshot | undefined;
type Fill = (add: (labels: Record<string, string>, value: number) => void) => void;

/** A counter whose values are set from the scrape's snapshot by `fill`. */
function snapshotCounter(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly string[],
  fill: Fill,
): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      fill((labels, value) => this.inc(labels, value));
    },
  });
}

/** The per-deployment counters and the in-flight gauge. */
function deploymentSeries(registry: Registry, read: Read): void {
  const rows = (): Row[] => read()?.deployments ?? [];
  const each = (name: string, help: string, value: (d: Row) => number) =>
    snapshotCounter(registry, name, help, DEPLOYMENT, (add) => {
      for (const d of rows()) add(labelsOf(d), value(d));
    });
  const byKey = (name: string, help: string, label: string, record: (d: Row) => Record<string, number>) =>
    snapshotCounter(registry, name, help, [...DEPLOYMENT, label], (add) => {
      for (const d of rows())
        for (const [key, count] of Object.entries(record(d))) add({ ...labelsOf(d), [label]: key }, count);
    });
  byKey(
    'svc_requests_total',
    'Upstream attempts that ended, by status class.',
    'status_class',
    (d) => d.requests,
  );
  byKey('svc_errors_total', 'Failed upstream attempts, by error class.', 'error_type', (d) => d.errors);
  byKey('svc_tokens_total', 'Tokens of successful calls, by type (input, output).', 'token_type', (d) => ({
    input: d.input_tokens,
    output: d.output_tokens,
  }));
  each(
    'svc_retries_total',
    'Attempts after the first of their call (retries, tiers, fallbacks).',
    (d) => d.retries,
  );
  each('svc_cache_hits_total', 'Calls answered from the response cache.', (d) => d.cache_hits);
  each('svc_cooldowns_total', 'Times a deployment was cooled down.', (d) => d.cooldowns);
  each('svc_aborted_total', 'Attempts cancelled by the caller or a won hedge race.', (d) => d.aborted);
  each('svc_spend_usd_total', 'response_cost of successful calls, in USD.', (d) => d.spend);
  new Gauge({
    name: 'svc_in_flight_requests',
    help: 'Upstream attempts in flight.',
    labelNames: DEPLOYMENT,
    registers: [registry],
    collect() {
      this.reset();
      for (const d of rows()) this.set(labelsOf(d), d.in_flight);
    },
  });
}

/** Fallbacks, hedges, store and database errors, pending spend rows. */
function routerSeries(registry: Registry, read: Read, spendStats: () => SpendStats): void {
  snapshotCounter(
    registry,
    'svc_fallbacks_total',
    'Calls moved from a model group to a fallback group.',
    ['model_group', 'fallback_group'],
    (add) => {
      for (const f of read()?.fallbacks ?? []) add({ model_group: f.from, fallback_group: f.to }, f.count);
    },
  );
  snapshotCounter(
    registry,
    'svc_hedges_total',
    'Hedged attempts started (hedge_after).',
    ['model_group'],
    (add) => {
      for (const h of read()?.hedges ?? []) add({ model_group: h.model_group }, h.count);
    },
  );
  snapshotCounter(
    registry,
    'svc_store_errors_total',
    'Failed operations on the shared store (Redis).',
    [],
    (add) => add({}, read()?.store_errors ?? 0),
  );
  snapshotCounter(
    registry,
    'svc_database_errors_total',
    'Failed writes of spend rows to the database (each is retried).',
    [],
    (add) => add({}, spendStats().failedFlushes),
  );
  snapshotCounter(
    registry,
    'svc_spend_logs_dropped_total',
    'Spend rows dropped unwritten: more than the writer holds were pending (a long database outage), or they came after shutdown closed it.',
    [],
    (add) => add({}, spendStats().dropped),
  );
  snapshotCounter(
    registry,
    'svc_spend_logs_rejected_total',
    'Spend rows the database refused as data, set aside so that the others are written.',
    [],
    (add) => add({}, spendStats().rejected),
  );
  new Gauge({
    name: 'svc_spend_logs_pending',
    help: 'Spend rows waiting to be written.',
    registers: [registry],
    collect() {
      this.set(spendStats().pending);
    },
  });
}

/** Call records per `callbacks` destination (`destination`: its type, `index`: its place in the list). */
function recordSeries(registry: Registry, stats: () => DeliveryStats[]): void {
  const each = (name: string, help: string, value: (s: DeliveryStats) => number) =>
    snapshotCounter(registry, name, help, ['destination', 'index'], (add) => {
      for (const [i, s] of stats().entries()) add({ destination: s.destination, index: String(i) }, value(s));
    });
  each('svc_call_records_delivered_total', 'Call records the destination accepted.', (s) => s.delivered);
  each(
    'svc_call_records_dropped_total',
    'Call records dropped unsent: the queue was full (max_queue_size) or shutdown ran out of time.',
    (s) => s.dropped,
  );
  each(
    'svc_call_records_failed_total',
    'Call records of batches given up after their retries.',
    (s) => s.failed,
  );
  new Gauge({
    name: 'svc_call_records_pending',
    help: 'Call records waiting or being sent.',
    labelNames: ['destination', 'index'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [i, s] of stats().entries())
        this.set({ destination: s.destination, index: String(i) }, s.pending);
    },
  });
}

/** Latency and time to first token of successful upstream attempts, fed by `success` events. */
function latencySeries(registry: Registry, router: Router): void {
  const latency = new LiveHistogram(
    'svc_request_duration_seconds',
    'Duration of successful upstream attempts (streams: until their end).',
    DEPLOYMENT,
    LATENCY_BUCKETS,
    registry,
  );
  const ttft = new LiveHistogram(
    'svc_time_to_first_token_seconds',
    'Time from the start of a successful streamed attempt to its first chunk.',
    DEPLOYMENT,
    TTFT_BUCKETS,
    registry,
  );
  router.on('success', (e: SuccessEvent) => {
    if (e.cache_hit) return;
    const labels = { model_group: e.model_group, model_id: e.model_id, provider: e.provider };
    latency.observe(labels, e.latency_ms / 1000);
    if (e.time_to_first_token_ms !== null) ttft.observe(labels, e.time_to_first_token_ms / 1000);
  });
}

/** HTTP requests by route pattern: what `observeHttp` records. */
function httpSeries(registry: Registry): ProxyMetrics['observeHttp'] {
  const requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests answered by the proxy, by route pattern and status class.',
    labelNames: ['route', 'method', 'status_class'],
    registers: [registry],
  });
  const duration = new LiveHistogram(
    'svc_http_request_duration_seconds',
    'Time to answer an HTTP request (streams: until the response ended).',
    ['route', 'method'],
    LATENCY_BUCKETS,
    registry,
  );
  return (route, method, status, seconds) => {
    requests.inc({ route, method, status_class: `${Math.floor(status / 100)}xx` });
    duration.observe({ route, method }, seconds);
  };
}

/**
 * Builds the proxy's registry (its own, never prom-client's global one). Counters and gauges are read
 * from `router.metrics()` once per scrape; the latency and time-to-first-token histograms are fed live
 * by the router's `success` events (successful upstream attempts; cache hits are left out).
 */
export function createProxyMetrics(sources: ProxyMetricsSources): ProxyMetrics {
  const registry = new Registry();
  let snapshot: RouterMetricsSnapshot | undefined;
  const read = () => snapshot;
  deploymentSeries(registry, read);
  routerSeries(registry, read, sources.spendStats);
  recordSeries(registry, sources.recordStats ?? (() => []));
  latencySeries(registry, sources.router);
  const observeHttp = httpSeries(registry);
  return {
    contentType: registry.contentType,
    async render() {
      snapshot = sources.router.metrics();
      return registry.metrics();
    },
    observeHttp,
  };
}
