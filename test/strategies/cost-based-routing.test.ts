import { describe, expect, it } from 'vitest';
import { selectionPrice, UNKNOWN_PRICE } from '../../src/cost/selection-price.js';
import { Router } from '../../src/index.js';
import { costBasedRouting } from '../../src/strategies/cost-based-routing.js';
import { seededRandom, strategyContract, testDeployment } from '../../src/testing/index.js';
import { deployment, USER, useMock } from '../helpers.js';
import { choose, fakeClock, group, tally } from './helpers.js';

strategyContract({ name: 'cost-based-routing', create: ({ random }) => costBasedRouting(random) });

describe('cost-based-routing', () => {
  const strategy = costBasedRouting(seededRandom(1));

  it('chooses the deployment with the lowest input plus output price per token', () => {
    const candidates = group({
      a: { input_cost_per_token: 1e-6, output_cost_per_token: 4e-6 }, // 5e-6
      b: { input_cost_per_token: 2e-6, output_cost_per_token: 2e-6 }, // 4e-6
      c: { input_cost_per_token: 5e-7, output_cost_per_token: 6e-6 }, // 6.5e-6
    });
    expect(tally(strategy, candidates, 50)).toEqual({ b: 50 });
  });

  it('takes prices from the cost map when the deployment sets none', () => {
    const candidates = [
      testDeployment({ id: 'big', svc_params: { model: 'openai/gpt-4o' } }),
      testDeployment({ id: 'mini', svc_params: { model: 'openai/gpt-4o-mini' } }),
      testDeployment({
        id: 'named',
        svc_params: { model: 'azure/my-deployment', base_model: 'gpt-4.1-nano' },
      }),
    ];
    expect(choose(strategy, candidates)).toBe('named');
    expect(choose(strategy, candidates.slice(0, 2))).toBe('mini');
  });

  it('prices a deployment that neither sets a price nor is in the cost map at 1 dollar', () => {
    const unknown = testDeployment({ id: 'unknown', svc_params: { model: 'openai/house-model' } });
    const dear = testDeployment({
      id: 'dear',
      svc_params: { model: 'openai/gpt-4o', input_cost_per_token: 0.6, output_cost_per_token: 0.6 },
    });
    const mini = testDeployment({ id: 'mini', svc_params: { model: 'openai/gpt-4o-mini' } });
    expect(selectionPrice(unknown)).toBe(UNKNOWN_PRICE);
    expect(choose(strategy, [unknown, mini])).toBe('mini');
    expect(choose(strategy, [unknown, dear])).toBe('unknown');
  });

  it('shares equally priced deployments at random', () => {
    const candidates = group({ a: {}, b: {}, c: { model: 'openai/gpt-4' } });
    const counts = tally(costBasedRouting(seededRandom(2)), candidates, 600);
    // a and b are both gpt-4o: 300 each expected, bounds about 4.9 standard deviations
    expect(counts.a).toBeGreaterThan(240);
    expect(counts.b).toBeGreaterThan(240);
    expect(counts.c).toBeUndefined();
  });

  it('leaves out the cheapest when it is at its rpm or tpm this minute', () => {
    const candidates = group({
      cheap: { model: 'openai/gpt-4o-mini', rpm: 10 },
      cheaper: { model: 'openai/gpt-4.1-nano', tpm: 500 },
      dear: { model: 'openai/gpt-4o' },
    });
    const usage = (cheap: number, cheaper: number) => [
      { rpm: cheap, tpm: 0 },
      { rpm: 0, tpm: cheaper },
      { rpm: 0, tpm: 0 },
    ];
    expect(choose(strategy, candidates, usage(0, 0))).toBe('cheaper');
    expect(choose(strategy, candidates, usage(0, 500))).toBe('cheap');
    expect(choose(strategy, candidates, usage(10, 500))).toBe('dear');
  });
});

describe('cost-based-routing through the router', () => {
  const mock = useMock();

  const priced = (name: string, price: number, extra: Record<string, unknown> = {}) =>
    deployment(mock, name, { input_cost_per_token: price, output_cost_per_token: price, ...extra });
  const ask = async (router: Router) =>
    (await router.acompletion({ model: 'gpt-4o', messages: USER }))._hidden_params.model_id;

  it('serves every call from the cheapest deployment', async () => {
    const router = new Router([priced('dear', 3e-6), priced('cheap', 1e-6), priced('mid', 2e-6)], {
      routing_strategy: 'cost-based-routing',
    });
    for (let i = 0; i < 10; i++) await ask(router);
    await router.close();
    expect(mock.hits('/cheap/')).toBe(10);
    expect(mock.hits('/mid/') + mock.hits('/dear/')).toBe(0);
  });

  it('falls back to the next cheapest when the cheapest fails, and stays there while it cools', async () => {
    mock.setBehavior('/cheap', { status: 500 });
    const router = new Router([priced('dear', 3e-6), priced('cheap', 1e-6), priced('mid', 2e-6)], {
      routing_strategy: 'cost-based-routing',
      allowed_fails: 0,
    });
    const first = await ask(router);
    const rest: string[] = [];
    for (let i = 0; i < 5; i++) rest.push(await ask(router));
    await router.close();
    expect(first).toBe('mid');
    expect(rest).toEqual(Array(5).fill('mid'));
    expect(mock.hits('/cheap/')).toBe(1);
  });

  it('moves to the next cheapest when the cheapest reaches its rpm for the minute', async () => {
    const clock = fakeClock();
    const router = new Router(
      [priced('cheap', 1e-6, { rpm: 3 }), priced('mid', 2e-6)],
      {
        routing_strategy: 'cost-based-routing',
      },
      { now: clock.now },
    );
    const served: string[] = [];
    for (let i = 0; i < 5; i++) served.push(await ask(router));
    clock.advance(60_000);
    served.push(await ask(router));
    await router.close();
    expect(served).toEqual(['cheap', 'cheap', 'cheap', 'mid', 'mid', 'cheap']);
  });
});
