import { describe, expect, it } from 'vitest';
import { type DeploymentMetrics, Router } from '../../src/index.js';
import { deployment, USER, useMock } from '../helpers.js';

const mock = useMock();

const of = (router: Router, id: string): DeploymentMetrics =>
  router.metrics().deployments.find((d) => d.model_id === id)!;

describe('router.metrics()', () => {
  it('lists every configured deployment with zero counts before any call', async () => {
    const router = new Router([deployment(mock, 'a'), deployment(mock, 'b')]);
    const snapshot = router.metrics();
    await router.close();
    expect(snapshot.deployments.map((d) => d.model_id).sort()).toEqual(['a', 'b']);
    expect(snapshot.deployments[0]).toMatchObject({
      model_group: 'gpt-4o',
      provider: 'openai',
      requests: {},
      errors: {},
      retries: 0,
      in_flight: 0,
    });
    expect(snapshot).toMatchObject({ fallbacks: [], hedges: [], store_errors: 0 });
  });

  it('counts successes with their tokens, spend and latency', async () => {
    mock.setBehavior('/a', { usage: { prompt_tokens: 10, completion_tokens: 5 } });
    const router = new Router([deployment(mock, 'a', { input_cost_per_token: 1, output_cost_per_token: 2 })]);
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    const a = of(router, 'a');
    await router.close();
    expect(a).toMatchObject({
      requests: { '2xx': 2 },
      input_tokens: 20,
      output_tokens: 10,
      spend: 40,
      latency_count: 2,
    });
    expect(a.latency_ms_sum).toBeGreaterThanOrEqual(0);
  });

  it('counts a failed attempt by status class and error class, and the retry after it', async () => {
    mock.setBehavior('/a', { status: 500, failTimes: 1 });
    const router = new Router([deployment(mock, 'a')], { num_retries: 1 }, { random: () => 0 });
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    const a = of(router, 'a');
    await router.close();
    expect(a).toMatchObject({
      requests: { '5xx': 1, '2xx': 1 },
      errors: { InternalServerError: 1 },
      retries: 1,
    });
  });

  it('counts fallbacks per pair of groups', async () => {
    mock.setBehavior('/a', { status: 500 });
    const router = new Router([deployment(mock, 'a'), deployment(mock, 'c', {}, 'backup')], {
      num_retries: 0,
      fallbacks: [{ 'gpt-4o': ['backup'] }],
    });
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    const snapshot = router.metrics();
    await router.close();
    expect(snapshot.fallbacks).toEqual([{ from: 'gpt-4o', to: 'backup', count: 1 }]);
    expect(of(router, 'c').retries).toBe(1);
  });

  it('counts a cache hit on the deployment whose answer was served', async () => {
    const router = new Router([deployment(mock, 'a')], { cache_responses: true });
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    const a = of(router, 'a');
    await router.close();
    expect(a).toMatchObject({ cache_hits: 1, requests: { '2xx': 1 } });
  });

  it('counts cooldowns and shows calls in flight', async () => {
    mock.setBehavior('/a', { status: 401 });
    mock.setBehavior('/b', { delayMs: 100 });
    const router = new Router([deployment(mock, 'a'), deployment(mock, 'b')], { num_retries: 0 });
    // a 401 cools a deployment at once
    while (of(router, 'a').cooldowns === 0)
      await router.acompletion({ model: 'gpt-4o', messages: USER }).catch(() => undefined);
    const pending = router.acompletion({ model: 'gpt-4o', messages: USER });
    await new Promise((r) => setTimeout(r, 20));
    const inFlight = of(router, 'b').in_flight;
    await pending;
    await router.close();
    expect(of(router, 'a')).toMatchObject({ cooldowns: 1, errors: { AuthenticationError: 1 } });
    expect(inFlight).toBe(1);
  });
});
