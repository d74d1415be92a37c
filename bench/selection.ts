// bench/selection.ts (npm run bench:selection): the time a call spends choosing its deployment, per
// strategy, for groups of 10 to 10,000 deployments, on the in-memory store. Two columns per size:
//   select  - the strategy's `select` alone (the choice);
//   layer   - the router's whole selection step: cooldown view, minute-usage read when the strategy
//             needs it, candidate filtering, the choice, claiming the slot, counting the request.
// Times are CPU time of the measuring process (user + system) per call, so other processes on a busy
// machine do not count; each strategy runs in a process of its own. Deployments set rpm/tpm (so slots
// are counted) and a steady state is set up first: every deployment measured, some calls in flight.
// Then the store round trips a call waits for, with a store that answers with Promises and pipelines
// the commands of one tick (as ioredis with auto-pipelining does).
// BENCH_MS shortens each measurement; BENCH_SIZES=10,100 picks sizes; `tsx bench/selection.ts <name>`
// measures one strategy and prints JSON.
import { ConcurrencyLimiter } from '../src/checks/concurrency-limiter.js';
import { UsageCounters } from '../src/checks/usage-counters.js';
import { buildDeployments } from '../src/config/build-deployments.js';
import { BUILT_IN_STRATEGIES } from '../src/config/settings-schema.js';
import { CooldownTracker } from '../src/cooldown/cooldown-tracker.js';
import { NoDeploymentsAvailableError } from '../src/errors/classes.js';
import { createProviderRegistry } from '../src/providers/registry.js';
import {
  type Call,
  type CallPath,
  firstStep,
  type Handler,
  newHistory,
  type Routed,
  type Step,
} from '../src/router/call.js';
import { DeploymentRegistry } from '../src/router/deployment-registry.js';
import { selectLayer } from '../src/router/layers/select.js';
import { MemoryStore } from '../src/stores/memory-store.js';
import type { MaybePromise, Store, StoreWriteOptions } from '../src/stores/store.js';
import { STRATEGIES } from '../src/strategies/index.js';
import type { RoutingStrategy } from '../src/strategies/strategy.js';
import { seededRandom } from '../src/testing/seeded-random.js';
import type { ModelGroup } from '../src/types/index.js';
import { runJson } from './lib/child.js';
import { median } from './lib/stats.js';

const SIZES = process.env.BENCH_SIZES
  ? process.env.BENCH_SIZES.split(',').map(Number)
  : [10, 100, 1_000, 10_000];
const MEASURE_MS = Number(process.env.BENCH_MS ?? 300);
const ROUNDS = 3;

/** A group of `n` deployments, built as the router builds them; prices and limits vary, as in real lists. */
function groupOf(n: number): ModelGroup {
  const models = ['openai/gpt-4o', 'openai/gpt-4o-mini', 'openai/gpt-4.1-mini', 'openai/house-model'];
  const entries = Array.from({ length: n }, (_, i) => ({
    model_name: 'bench',
    svc_params: {
      model: models[i % models.length]!,
      api_key: 'sk-bench-0000',
      api_base: `http://127.0.0.1:9/${i}`,
      rpm: 1_000_000,
      tpm: 1_000_000_000,
    },
    model_info: { id: `d${i}` },
  }));
  const registry = new DeploymentRegistry(buildDeployments(entries, {}, {}), {
    timeout: 600,
    streamTimeout: undefined,
    firstTokenTimeout: undefined,
    streamTotalTimeout: undefined,
    cooldownTime: 5,
    // a parallel limit above any count: the layer filters by room, as in a limited config
    defaultMaxParallelRequests: 1_000_000,
    passThrough: false,
    defaultParams: {},
    env: {},
    providers: createProviderRegistry(),
    hasFallbacks: () => false,
  });
  return registry.group('bench')!;
}

/** The store round trips of one call: commands issued in one synchronous run share one. */
class PipelinedStore implements Store {
  readonly inner = new MemoryStore();
  readRoundTrips = 0;
  #open: { read: boolean } | undefined;
  #send<T>(read: boolean, run: () => T): Promise<T> {
    if (!this.#open) {
      const batch = { read: false };
      this.#open = batch;
      queueMicrotask(() => {
        if (batch.read) this.readRoundTrips++;
        this.#open = undefined;
      });
    }
    if (read) this.#open.read = true;
    return Promise.resolve().then(run);
  }
  get<T>(key: string): MaybePromise<T | undefined> {
    return this.#send(true, () => this.inner.get<T>(key));
  }
  set(key: string, value: unknown, options?: StoreWriteOptions): MaybePromise<void> {
    return this.#send(false, () => this.inner.set(key, value, options));
  }
  increment(key: string, by?: number, options?: StoreWriteOptions): MaybePromise<number> {
    return this.#send(false, () => this.inner.increment(key, by, options));
  }
  getMany<T>(keys: readonly string[]): MaybePromise<Array<T | undefined>> {
    return this.#send(true, () => this.inner.getMany<T>(keys));
  }
  delete(key: string): MaybePromise<void> {
    return this.#send(false, () => this.inner.delete(key));
  }
}

interface Bench {
  strategy: RoutingStrategy;
  select: CallPath;
  call(): Call<string>;
  group: ModelGroup;
}

/** The select layer over real pieces; `next` ends the attempt at once and feeds the strategy, as the runtime does. */
function benchOf(name: string, group: ModelGroup, store: Store, shared: boolean): Bench {
  const random = seededRandom(1);
  let clock = 1_800_000_000_000;
  const now = () => clock;
  const limiter = new ConcurrencyLimiter();
  const tracker = new CooldownTracker({ store, shared, onCooldown() {} });
  const usage = new UsageCounters(store);
  const strategy = STRATEGIES[name]!(
    {
      random,
      now,
      store,
      inFlight: (id) => limiter.inFlight(id),
      inFlightCounter: (id) => limiter.counter(id),
    },
    { ttl: 3_600, lowest_latency_buffer: 0.1 },
  );
  // a steady state: every deployment measured, some calls in flight
  for (const [i, d] of group.endpoints.entries()) {
    strategy.onOutcome?.({
      deployment: d.deployment,
      model: 'bench',
      ok: true,
      latencyMs: 200 + (i % 97),
      stream: false,
    });
    for (let k = 0; k < i % 3; k++) limiter.tryAcquire(d.deployment.id, undefined);
  }
  const next: Handler = async <T>(_call: Call<T>, step: Step): Promise<Routed<T>> => {
    const endpoint = step.endpoint!;
    const { deployment } = endpoint;
    limiter.release(deployment.id);
    strategy.onOutcome?.({
      deployment,
      model: 'bench',
      ok: true,
      latencyMs: 250,
      stream: false,
      totalTokens: 100,
    });
    if (strategy.needsUsage) usage.countTokens(deployment, 100, now());
    clock += 1;
    return { result: '' as T, endpoint, attempts: 1, startMs: 0, firstMs: 0, settle() {} };
  };
  const layer = selectLayer(
    {
      tracker,
      limiter,
      now,
      strategyFor: () => strategy,
      noDeployments: (g) =>
        new NoDeploymentsAvailableError(`no deployments for ${g.name}`, { model: g.name }),
      usage: { counters: usage, appliesTo: (_g, s) => s.needsUsage === true },
    },
    { limited: true, weightedFailover: () => false },
  )(next);
  const select: CallPath = (call) => layer(call, firstStep(call));
  const request = { model: 'bench', messages: [{ role: 'user', content: 'hello' }] };
  const call = (): Call<string> => ({
    kind: 'chat',
    startMs: clock,
    model: 'bench',
    group,
    request,
    stream: false,
    signal: undefined,
    allowModel: undefined,
    onAbortedAttempt: undefined,
    asyncEntry: true,
    pricedOnly: false,
    numRetries: undefined,
    deadline: clock + 60_000,
    operation: async () => '',
    body: {},
    timeoutMs: undefined,
    dropParams: false,
    mockResponse: undefined,
    history: newHistory(),
  });
  return { strategy, select, call, group };
}

/**
 * CPU microseconds per run of `task` (user + system time of this process, so that other processes on a
 * busy machine do not count), the median of a few rounds after a warm-up.
 */
async function timePerCall(task: () => unknown): Promise<number> {
  const round = async (ms: number) => {
    let n = 0;
    const start = performance.now();
    const cpu = process.cpuUsage();
    while (performance.now() - start < ms) {
      for (let i = 0; i < 32; i++) {
        const r = task();
        if (r instanceof Promise) await r;
      }
      n += 32;
    }
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / n;
  };
  await round(MEASURE_MS / 3);
  const results: number[] = [];
  for (let i = 0; i < ROUNDS; i++) results.push(await round(MEASURE_MS));
  return median(results);
}

const fmt = (us: number) => (us < 10 ? us.toFixed(2) : us < 100 ? us.toFixed(1) : us.toFixed(0)).padStart(8);

interface Row {
  name: string;
  /** µs per call by group size: the strategy's select, and the whole select layer. */
  select: number[];
  layer: number[];
  /** Store read round trips a call waits for: shared store, private store. */
  roundTrips: [number, number];
}

/** Measures one strategy (in a process of its own, so that no other strategy's code shapes the JIT's view). */
async function measure(name: string): Promise<Row> {
  const row: Row = { name, select: [], layer: [], roundTrips: [0, 0] };
  for (const n of SIZES) {
    const group = groupOf(n);
    const bench = benchOf(name, group, new MemoryStore(), false);
    const candidates = group.tiers[0]!.deployments;
    const usage = bench.strategy.needsUsage ? candidates.map(() => ({ rpm: 3, tpm: 300 })) : undefined;
    const context = { model: 'bench', request: {}, usage };
    row.select.push(await timePerCall(() => bench.strategy.select(candidates, context)));
    row.layer.push(await timePerCall(() => bench.select(bench.call())));
  }
  for (const [i, shared] of [true, false].entries()) {
    const store = new PipelinedStore();
    const bench = benchOf(name, groupOf(100), store, shared);
    const calls = 200;
    for (let c = 0; c < calls; c++) await bench.select(bench.call());
    row.roundTrips[i] = store.readRoundTrips / calls;
  }
  return row;
}

const only = process.argv[2];
if (only) {
  console.log(JSON.stringify(await measure(only)));
} else {
  const rows: Row[] = [];
  for (const name of BUILT_IN_STRATEGIES) rows.push(await runJson<Row>('selection.ts', [name]));
  console.log(
    `selection CPU time per call, µs (median of ${ROUNDS} rounds of ${MEASURE_MS} ms; memory store)`,
  );
  console.log('select: the strategy alone; layer: the whole selection step of a call');
  console.log(`| strategy | ${SIZES.map((n) => `${n.toLocaleString('en')}: select | layer`).join(' | ')} |`);
  console.log(`|---|${SIZES.map(() => '---:|---:').join('|')}|`);
  for (const row of rows) {
    const cells = SIZES.map((_, i) => `${fmt(row.select[i]!)} | ${fmt(row.layer[i]!)}`);
    console.log(`| ${row.name} | ${cells.join(' | ')} |`);
  }
  console.log(
    '\nstore read round trips a call waits for (store answering with Promises, one tick pipelined)',
  );
  console.log('| strategy | shared store (cooldowns read) | private store |');
  console.log('|---|---:|---:|');
  for (const row of rows)
    console.log(`| ${row.name} | ${row.roundTrips[0].toFixed(2)} | ${row.roundTrips[1].toFixed(2)} |`);
}
