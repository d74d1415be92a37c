import { describe, expect, it } from 'vitest';
import { Router } from '../../src/index.js';
import { leastBusy } from '../../src/strategies/least-busy.js';
import { seededRandom, strategyContract } from '../../src/testing/index.js';
import { deployment, USER, useMock } from '../helpers.js';
import { choose, group, tally } from './helpers.js';

strategyContract({ name: 'least-busy', create: ({ random }) => leastBusy({ random, inFlight: () => 0 }) });

describe('least-busy', () => {
  const [a, b, c] = group({ a: {}, b: {}, c: {} });
  const candidates = [a!, b!, c!];

  it('chooses the deployment with the fewest calls in flight', () => {
    const inFlight: Record<string, number> = { a: 4, b: 1, c: 2 };
    const strategy = leastBusy({ random: seededRandom(1), inFlight: (id) => inFlight[id] ?? 0 });
    expect(tally(strategy, candidates, 100)).toEqual({ b: 100 });
  });

  it('breaks ties at random, not by list order', () => {
    const inFlight: Record<string, number> = { a: 1, b: 1, c: 3 };
    const strategy = leastBusy({ random: seededRandom(2), inFlight: (id) => inFlight[id] ?? 0 });
    const counts = tally(strategy, candidates, 600);
    // a and b tie: 300 each expected, bounds about 4.9 standard deviations
    expect(counts.a).toBeGreaterThan(240);
    expect(counts.b).toBeGreaterThan(240);
    expect(counts.c).toBeUndefined();
  });

  it('follows the counts as they change', () => {
    const inFlight: Record<string, number> = { a: 0, b: 0, c: 0 };
    const strategy = leastBusy({ random: seededRandom(3), inFlight: (id) => inFlight[id] ?? 0 });
    const picked: string[] = [];
    for (let i = 0; i < 6; i++) {
      const id = choose(strategy, candidates)!;
      picked.push(id);
      inFlight[id]! += 1;
    }
    // each deployment takes a second call only once all three have one
    expect(picked.slice(0, 3).sort()).toEqual(['a', 'b', 'c']);
    expect(picked.slice(3).sort()).toEqual(['a', 'b', 'c']);
  });
});

describe('least-busy through the router', () => {
  const mock = useMock();

  it('spreads concurrent slow calls evenly over the deployments', async () => {
    for (const name of ['a', 'b', 'c']) mock.setBehavior(`/${name}`, { delayMs: 80 });
    const router = new Router(
      ['a', 'b', 'c'].map((name) => deployment(mock, name)),
      { routing_strategy: 'least-busy' },
      { random: seededRandom(4) },
    );
    const served = await Promise.all(
      Array.from({ length: 12 }, () => router.acompletion({ model: 'gpt-4o', messages: USER })),
    );
    await router.close();
    const counts: Record<string, number> = {};
    for (const res of served)
      counts[res._hidden_params.model_id] = (counts[res._hidden_params.model_id] ?? 0) + 1;
    expect(counts).toEqual({ a: 4, b: 4, c: 4 });
    expect(mock.hits('/a/')).toBe(4);
  });

  it('sends new calls to the deployment that is not stuck on a slow call', async () => {
    mock.setBehavior('/a', { delayMs: 300 });
    mock.setBehavior('/b', { delayMs: 300 });
    const router = new Router(
      [deployment(mock, 'a'), deployment(mock, 'b')],
      { routing_strategy: 'least-busy' },
      { random: seededRandom(5) },
    );
    const slow = router.acompletion({ model: 'gpt-4o', messages: USER });
    while (mock.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    // the slow call is upstream: from now on both deployments answer at once
    mock.setBehavior('/a', {});
    mock.setBehavior('/b', {});
    const quick: string[] = [];
    for (let i = 0; i < 10; i++) {
      quick.push((await router.acompletion({ model: 'gpt-4o', messages: USER }))._hidden_params.model_id);
    }
    const stuck = (await slow)._hidden_params.model_id;
    await router.close();
    expect(quick).toEqual(Array(10).fill(stuck === 'a' ? 'b' : 'a'));
  });
});
