import { describe, expect, it } from 'vitest';
import { Router } from '../../src/index.js';
import { FAILED_CALL_LATENCY_MS, latencyBasedRouting } from '../../src/strategies/latency-based-routing.js';
import { SlidingAverage } from '../../src/strategies/sliding-average.js';
import type { CallOutcome } from '../../src/strategies/strategy.js';
import { seededRandom, strategyContract } from '../../src/testing/index.js';
import type { Deployment } from '../../src/types/index.js';
import { deployment, USER, useMock } from '../helpers.js';
import { choose, fakeClock, group, tally } from './helpers.js';

strategyContract({
  name: 'latency-based-routing',
  create: ({ random, now }) => latencyBasedRouting({ random, now, inFlight: () => 0 }),
});

const [a, b, c] = group({ a: {}, b: {}, c: {} });
const candidates = [a!, b!, c!];

const outcome = (
  deployment: Deployment,
  latencyMs: number,
  extra: Partial<CallOutcome> = {},
): CallOutcome => ({
  deployment,
  model: deployment.modelName,
  ok: true,
  latencyMs,
  stream: false,
  ...extra,
});

function setUp(
  args: { ttl?: number; lowest_latency_buffer?: number } = {},
  inFlight: Record<string, number> = {},
) {
  const clock = fakeClock();
  const strategy = latencyBasedRouting(
    { random: seededRandom(9), now: clock.now, inFlight: (id) => inFlight[id] ?? 0 },
    args,
  );
  /** Reports one call per deployment with these latencies. */
  const measure = (latencies: Record<string, number>) => {
    for (const d of candidates) {
      const ms = latencies[d.id];
      if (ms !== undefined) strategy.onOutcome!(outcome(d, ms));
    }
  };
  return { clock, strategy, measure };
}

describe('latency-based-routing', () => {
  it('sends every call to the deployment with the lowest average latency', () => {
    const { strategy, measure } = setUp();
    measure({ a: 300, b: 100, c: 200 });
    measure({ a: 300, b: 140, c: 110 }); // averages: a 300, b 120, c 155
    expect(tally(strategy, candidates, 100)).toEqual({ b: 100 });
  });

  it('shares traffic at random among deployments within lowest_latency_buffer of the fastest', () => {
    const { strategy, measure } = setUp({ lowest_latency_buffer: 0.5 });
    measure({ a: 100, b: 140, c: 151 }); // within 1.5 x 100: a and b
    const counts = tally(strategy, candidates, 600);
    // 300 each expected; bounds about 4.9 standard deviations
    expect(counts.a).toBeGreaterThan(240);
    expect(counts.b).toBeGreaterThan(240);
    expect(counts.c).toBeUndefined();
  });

  it('tries a deployment with no sample before any measured one', () => {
    const { strategy, measure } = setUp();
    measure({ a: 10, b: 20 });
    expect(choose(strategy, candidates)).toBe('c');
  });

  it('tries an unmeasured deployment one call at a time', () => {
    const inFlight: Record<string, number> = { c: 1 };
    const { strategy, measure } = setUp({}, inFlight);
    measure({ a: 10, b: 20 });
    // c's first call is still in flight: the others are ranked as usual meanwhile
    expect(tally(strategy, candidates, 50)).toEqual({ a: 50 });
  });

  it('chooses among unmeasured deployments that all have a call in flight rather than none', () => {
    const { strategy } = setUp({}, { a: 1, b: 1, c: 1 });
    const counts = tally(strategy, candidates, 300);
    expect(Object.keys(counts).sort()).toEqual(['a', 'b', 'c']);
  });

  it('ranks streams by their time to the first chunk', () => {
    const { strategy } = setUp();
    // a streams its first chunk fast but runs long; b answers in one piece in 200 ms
    strategy.onOutcome!(outcome(a!, 5_000, { stream: true, timeToFirstTokenMs: 50 }));
    strategy.onOutcome!(outcome(b!, 200));
    strategy.onOutcome!(outcome(c!, 400));
    expect(choose(strategy, candidates)).toBe('a');
  });

  it('counts a failure as a slow call', () => {
    const { strategy, measure } = setUp();
    measure({ a: 100, b: 400, c: 500 });
    strategy.onOutcome!(outcome(a!, 5, { ok: false }));
    // a's average is now (100 + 60 s) / 2: slower than b and c
    expect(choose(strategy, candidates)).toBe('b');
    expect(FAILED_CALL_LATENCY_MS).toBe(60_000);
  });

  it('averages over the last ttl seconds only', () => {
    const { strategy, measure, clock } = setUp({ ttl: 10 });
    measure({ a: 900, b: 100, c: 800 }); // b looks fast...
    clock.advance(11_000);
    measure({ a: 150, b: 500, c: 800 }); // ...but that was more than ttl ago
    expect(choose(strategy, candidates)).toBe('a');
  });

  it('tries a deployment again once its samples are older than ttl', () => {
    const { strategy, measure, clock } = setUp({ ttl: 10 });
    measure({ a: 100, b: 100, c: 5_000 });
    clock.advance(5_000);
    measure({ a: 100, b: 100 });
    clock.advance(6_000); // c's only sample is 11 s old: c is unmeasured again
    expect(choose(strategy, candidates)).toBe('c');
  });
});

describe('SlidingAverage', () => {
  it('averages the samples of the window and nothing older', () => {
    const window = new SlidingAverage(10_000);
    window.add(0, 100);
    window.add(5_000, 300);
    expect(window.average(5_000)).toBe(200);
    expect(window.average(10_500)).toBe(300);
    expect(window.average(16_000)).toBeNaN();
    expect(window.empty(16_000)).toBe(true);
  });

  it('keeps constant memory however many samples it takes', () => {
    const window = new SlidingAverage(1_000);
    for (let t = 0; t < 100_000; t++) window.add(t, t % 2 === 0 ? 10 : 30);
    expect(window.average(100_000)).toBeCloseTo(20, 5);
  });
});

describe('latency-based-routing through the router', () => {
  const mock = useMock();

  it('gives a slow deployment no more than its trial calls', async () => {
    // far slower than a fast call can be on a loaded machine, even its first one
    mock.setBehavior('/slow', { delayMs: 300 });
    const router = new Router(
      [deployment(mock, 'slow'), deployment(mock, 'fast')],
      { routing_strategy: 'latency-based-routing' },
      { random: seededRandom(6) },
    );
    const served: string[] = [];
    for (let i = 0; i < 30; i++) {
      served.push((await router.acompletion({ model: 'gpt-4o', messages: USER }))._hidden_params.model_id);
    }
    await router.close();
    // each is tried once while unmeasured; then every call goes to the fast one
    expect(mock.hits('/slow/')).toBe(1);
    expect(served.slice(2)).toEqual(Array(28).fill('fast'));
  });

  it('moves traffic away from a deployment that starts failing', async () => {
    const router = new Router(
      [deployment(mock, 'a'), deployment(mock, 'b')],
      { routing_strategy: 'latency-based-routing', disable_cooldowns: true },
      { random: seededRandom(8) },
    );
    const ask = async () =>
      (await router.acompletion({ model: 'gpt-4o', messages: USER }))._hidden_params.model_id;
    for (let i = 0; i < 4; i++) await ask();
    const favourite = await ask();
    const other = favourite === 'a' ? 'b' : 'a';
    mock.setBehavior(`/${favourite}`, { status: 500, failTimes: 1 });
    // its failure is retried on the other deployment, and counts as a slow call from then on
    expect(await ask()).toBe(other);
    const after: string[] = [];
    for (let i = 0; i < 10; i++) after.push(await ask());
    await router.close();
    expect(after).toEqual(Array(10).fill(other));
  });
});
