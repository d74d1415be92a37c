import { describe, expect, it } from 'vitest';
import { type ChatCompletionStream, ConfigError, Router, type RouterSettings } from '../../src/index.js';
import { useMock } from '../helpers.js';
import { ask, deployment, recordingRouter, sleep, trail, USER } from '../resilience/helpers.js';

const mock = useMock();

const timed = async <T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
};

/** Deployments a, b (and c): `firstChoice` makes a the first pick. */
const routerOf = (settings: RouterSettings, names = ['a', 'b'], params: Record<string, unknown> = {}) =>
  recordingRouter(
    names.map((n) => deployment(mock, n, params)),
    settings,
  );

describe('request hedging', () => {
  it('is off by default: a slow call waits for its one deployment', async () => {
    mock.setBehavior('/a', { delayMs: 150 });
    const { router } = routerOf({});
    const res = await ask(router);
    await router.close();
    expect(res._hidden_params.model_id).toBe('a');
    expect(trail(mock)).toEqual(['a']);
  });

  it('sends a call not answered within hedge_after to a second deployment, and the first answer wins', async () => {
    mock.setBehavior('/a', { delayMs: 400 });
    const { router } = routerOf({ hedge_after: 0.05 });
    const { value: res, ms } = await timed(() => ask(router));
    await router.close();
    expect(trail(mock)).toEqual(['a', 'b']);
    expect(res._hidden_params).toMatchObject({ model_id: 'b', attempts: 2 });
    expect(ms).toBeLessThan(300);
  });

  it('sends no hedge when the call answers within hedge_after', async () => {
    const { router } = routerOf({ hedge_after: 0.3 });
    const res = await ask(router);
    await router.close();
    expect(res._hidden_params).toMatchObject({ model_id: 'a', attempts: 1 });
    expect(trail(mock)).toEqual(['a']);
  });

  it('never counts the aborted loser against its deployment', async () => {
    mock.setBehavior('/a', { delayMs: 400 });
    const { router, cooldowns } = routerOf({ hedge_after: 0.03, allowed_fails: 0 });
    await ask(router);
    await sleep(20); // the loser's abort is reported when its request ends
    const a = router.getDeployments().find((d) => d.model_id === 'a')!;
    await router.close();
    expect(cooldowns).toEqual([]);
    expect(a).toMatchObject({ state: 'ok', in_flight: 0, failures_this_minute: 0 });
  });

  it('caps hedges at max_hedges (default 1)', async () => {
    mock.setBehavior('/', { delayMs: 200 });
    const one = routerOf({ hedge_after: 0.02 }, ['a', 'b', 'c']).router;
    await ask(one);
    await one.close();
    expect(mock.requests).toHaveLength(2);
    mock.reset();
    mock.setBehavior('/', { delayMs: 200 });
    const two = routerOf({ hedge_after: 0.02, max_hedges: 2 }, ['a', 'b', 'c']).router;
    await ask(two);
    await two.close();
    expect(trail(mock)).toEqual(['a', 'b', 'c']);
  });

  it('hedges only on another deployment: a group of one just waits', async () => {
    mock.setBehavior('/a', { delayMs: 120 });
    const { router } = routerOf({ hedge_after: 0.02 }, ['a']);
    const res = await ask(router);
    await router.close();
    expect(res._hidden_params).toMatchObject({ model_id: 'a', attempts: 1 });
    expect(trail(mock)).toEqual(['a']);
  });

  it('sends no hedge to a deployment at its max_parallel_requests', async () => {
    mock.setBehavior('/', { delayMs: 150 });
    const { router } = routerOf({ hedge_after: 0.02 }, ['a', 'b'], { max_parallel_requests: 1 });
    const [first, second] = await Promise.all([ask(router), ask(router)]);
    await router.close();
    expect(mock.requests).toHaveLength(2);
    expect([first._hidden_params.attempts, second._hidden_params.attempts]).toEqual([1, 1]);
  });

  it('leaves a failure before the hedge starts to the retries', async () => {
    mock.setBehavior('/a', { status: 500 });
    const { router } = routerOf({ hedge_after: 1, allowed_fails: 10 });
    const res = await ask(router);
    await router.close();
    expect(res._hidden_params).toMatchObject({ model_id: 'b', attempts: 2 });
  });

  it('waits for the hedge when the first attempt fails after it started', async () => {
    mock.setBehavior('/a', { delayMs: 80, status: 500 });
    mock.setBehavior('/b', { delayMs: 150 });
    const { router } = routerOf({ hedge_after: 0.02, allowed_fails: 10, num_retries: 0 });
    const res = await ask(router);
    await router.close();
    expect(res._hidden_params).toMatchObject({ model_id: 'b', attempts: 2 });
  });

  it('races streams to the first chunk', async () => {
    mock.setBehavior('/a', { delayMs: 400, content: 'slow answer' });
    mock.setBehavior('/b', { content: 'fast answer' });
    const { router } = routerOf({ hedge_after: 0.03 });
    const { value: stream, ms } = await timed(
      () => ask(router, 'gpt-4o', { stream: true }) as unknown as Promise<ChatCompletionStream>,
    );
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    await router.close();
    expect(ms).toBeLessThan(300);
    expect(stream._hidden_params.model_id).toBe('b');
    expect(text).toBe('fast answer');
  });

  it("cancels a hedged stream's upstream when the caller aborts after the race", async () => {
    mock.setBehavior('/a', { delayMs: 400, content: 'slow answer' });
    mock.setBehavior('/b', { content: 'one two three four five six', stream: { chunkDelayMs: 100 } });
    const { router } = routerOf({ hedge_after: 0.03 });
    const controller = new AbortController();
    const stream = (await router.acompletion(
      { model: 'gpt-4o', messages: USER, stream: true },
      { signal: controller.signal },
    )) as ChatCompletionStream;
    const reading = (async () => {
      for await (const _ of stream) {
        // read until the abort
      }
    })();
    await sleep(150); // the race is over: b won, a was aborted
    const reason = new Error('user cancelled');
    controller.abort(reason);
    await expect(reading).rejects.toBe(reason);
    await sleep(50);
    const inFlight = mock.inFlight;
    await router.close();
    expect(stream._hidden_params.model_id).toBe('b');
    expect(inFlight).toBe(0);
  });

  it('with hedge_after "p95", hedges once the group has a latency history, after its p95', async () => {
    const { router } = routerOf({ hedge_after: 'p95' });
    mock.setBehavior('/a', { delayMs: 300 });
    await ask(router); // no history: no hedge
    expect(mock.requests).toHaveLength(1);
    mock.reset();
    for (let i = 0; i < 20; i++) await ask(router);
    mock.setBehavior('/a', { delayMs: 300 });
    const { value: res, ms } = await timed(() => ask(router));
    await router.close();
    expect(res._hidden_params.model_id).toBe('b');
    expect(ms).toBeLessThan(250);
  });

  it('rejects a hedge_after that is neither seconds nor "p95", naming the setting', () => {
    const build = () =>
      new Router([deployment(mock, 'a')], { hedge_after: 'p99' } as unknown as RouterSettings);
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(/hedge_after/);
  });

  it('rejects max_hedges below 1', () => {
    expect(() => new Router([deployment(mock, 'a')], { hedge_after: 1, max_hedges: 0 })).toThrow(
      /max_hedges/,
    );
  });
});
