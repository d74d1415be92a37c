import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  type FailureEvent,
  RateLimitError,
  Router,
  type RouterError,
  TimeoutError,
} from '../../src/index.js';
import { useMock } from '../helpers.js';
import { ask, deployment, firstChoice, minuteStartClock, USER } from '../resilience/helpers.js';

const mock = useMock();

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as RouterError,
  );

describe('a deployment that accepts the request and never answers', () => {
  it('is not retried after its timeout: the call moves to another deployment at once', async () => {
    mock.setBehavior('/a', { fault: 'hang' });
    const router = new Router(
      [deployment(mock, 'a'), deployment(mock, 'b')],
      { timeout: 0.2 },
      {
        random: firstChoice,
      },
    );
    const start = performance.now();
    const served = (await ask(router))._hidden_params.model_id;
    const ms = performance.now() - start;
    await router.close();
    expect(served).toBe('b');
    expect(mock.hits('/a/')).toBe(1);
    expect(ms).toBeLessThan(1000);
  });

  it('fails with one TimeoutError, not three, when it is the only deployment', async () => {
    mock.setBehavior('/a', { fault: 'hang' });
    const router = new Router([deployment(mock, 'a')], { timeout: 0.2, num_retries: 2 });
    const error = await failure(ask(router));
    await router.close();
    expect(error).toBeInstanceOf(TimeoutError);
    expect(mock.hits('/a/')).toBe(1);
  });

  it('moves to the fallback group after one timeout', async () => {
    mock.setBehavior('/a', { fault: 'hang' });
    const router = new Router([deployment(mock, 'a'), deployment(mock, 'f', {}, 'backup')], {
      timeout: 0.2,
      fallbacks: [{ 'gpt-4o': ['backup'] }],
    });
    const served = (await ask(router))._hidden_params.model_id;
    await router.close();
    expect(served).toBe('f');
    expect(mock.hits('/a/')).toBe(1);
  });
});

describe('a one-deployment group with a fallback', () => {
  it('is cooled during an outage, so 60 calls go straight to the fallback after the first few', async () => {
    mock.setBehavior('/a', { status: 503 });
    const router = new Router([deployment(mock, 'a'), deployment(mock, 'f', {}, 'backup')], {
      fallbacks: [{ 'gpt-4o': ['backup'] }],
      cooldown_time: 30,
    });
    const served: string[] = [];
    for (let i = 0; i < 60; i++) served.push((await ask(router))._hidden_params.model_id);
    await router.close();
    expect(served.every((id) => id === 'f')).toBe(true);
    expect(mock.hits('/a/')).toBeLessThanOrEqual(6);
  });

  it('is used again as soon as its half-open probe succeeds', async () => {
    mock.setBehavior('/a', { status: 503 });
    const router = new Router([deployment(mock, 'a'), deployment(mock, 'f', {}, 'backup')], {
      fallbacks: [{ 'gpt-4o': ['backup'] }],
      cooldown_time: 0.1,
      allowed_fails: 0,
    });
    expect((await ask(router))._hidden_params.model_id).toBe('f');
    mock.setBehavior('/a', {});
    await new Promise((r) => setTimeout(r, 150));
    const after = (await ask(router))._hidden_params.model_id;
    await router.close();
    expect(after).toBe('a');
  });

  it('is never cooled without a fallback: its calls keep retrying it', async () => {
    mock.setBehavior('/a', { status: 503, failTimes: 4 });
    const router = new Router([deployment(mock, 'a')], { allowed_fails: 0, num_retries: 1 });
    await failure(ask(router));
    await failure(ask(router));
    const served = (await ask(router))._hidden_params.model_id;
    await router.close();
    expect(served).toBe('a');
  });
});

describe('a short retry-after on the last deployment (CONTRACT 6.2)', () => {
  const group = () => [deployment(mock, 'a'), deployment(mock, 'f', {}, 'backup')];
  const settings = { fallbacks: [{ 'gpt-4o': ['backup'] }], timeout: 2 };

  it('is waited out and the same deployment retried, the fallback unused', async () => {
    mock.setBehavior('/a', { status: 429, failTimes: 1, headers: { 'retry-after-ms': '100' } });
    const router = new Router(group(), settings);
    const fallbacks: string[] = [];
    router.on('fallback', (e) => fallbacks.push(e.to));
    const start = performance.now();
    const res = await ask(router);
    const ms = performance.now() - start;
    await router.close();
    expect(res._hidden_params).toMatchObject({ model_id: 'a', attempts: 2 });
    expect(ms).toBeGreaterThanOrEqual(95);
    expect(fallbacks).toEqual([]);
    expect(mock.hits('/f/')).toBe(0);
  });

  it('keeps the deployment cooled for the retry-after, so other calls skip to the fallback meanwhile', async () => {
    mock.setBehavior('/a', { status: 429, failTimes: 1, headers: { 'retry-after-ms': '150' } });
    // the router's clock moves only when told: a loaded machine's stalls cannot end the cooldown early
    let clock = Date.now();
    const router = new Router(group(), settings, { now: () => clock });
    let cooldownTime: number | undefined;
    let meanwhile: Promise<string> | undefined;
    router.once('cooldown', (e) => {
      cooldownTime = e.cooldown_time;
      meanwhile = ask(router).then((r) => r._hidden_params.model_id);
      setTimeout(() => {
        clock += 150; // the retry-after has passed by the time the waiting call wakes up
      }, 20);
    });
    const waited = (await ask(router))._hidden_params.model_id;
    const other = await meanwhile;
    await router.close();
    expect([waited, other]).toEqual(['a', 'f']);
    expect(cooldownTime).toBe(0.15);
    expect(mock.hits('/a/')).toBe(2);
  });

  it('is retried, not given up, when the clock reaches the cooldown’s end while the call looks again', async () => {
    mock.setBehavior('/a', { status: 429, failTimes: 1, headers: { 'retry-after-ms': '100' } });
    // a wait's timer can end a hair before the cooldown does (libuv's loop time is cached): the router's
    // clock stands 1 ms short of the cooldown's end when the wait is over, then ticks on every reading,
    // so the reading that finds the deployment cooling and the next one straddle the end
    const start = Date.now();
    let clock = start;
    let ticking = false;
    const router = new Router(group(), settings, { now: () => (ticking ? clock++ : clock) });
    router.once('cooldown', (e) => {
      setTimeout(() => {
        clock = start + e.cooldown_time * 1000 - 1;
        ticking = true;
      }, 20);
    });
    const res = await ask(router);
    await router.close();
    expect(res._hidden_params).toMatchObject({ model_id: 'a', attempts: 2 });
    expect(mock.hits('/f/')).toBe(0);
  });

  it('goes to the fallback at once when the retry-after is longer than the call has left', async () => {
    mock.setBehavior('/a', { status: 429, failTimes: 1, headers: { 'retry-after': '10' } });
    const router = new Router(group(), settings);
    const start = performance.now();
    const served = (await ask(router))._hidden_params.model_id;
    const ms = performance.now() - start;
    await router.close();
    expect(served).toBe('f');
    expect(ms).toBeLessThan(2000); // the call's timeout: it never started the 10 s wait
    expect(mock.hits('/a/')).toBe(1);
  });

  it('goes to the fallback at once without a retry left (num_retries: 0)', async () => {
    mock.setBehavior('/a', { status: 429, failTimes: 1, headers: { 'retry-after-ms': '100' } });
    const router = new Router(group(), { ...settings, num_retries: 0 });
    const served = (await ask(router))._hidden_params.model_id;
    await router.close();
    expect(served).toBe('f');
    expect(mock.hits('/a/')).toBe(1);
  });
});

describe('every wait fits in the call’s timeout', () => {
  it('fails a rate limit at once with its retryAfterMs when retry-after is longer than the timeout', async () => {
    mock.setBehavior('/a', { status: 429, headers: { 'retry-after': '10' } });
    const router = new Router([deployment(mock, 'a')], { timeout: 2 });
    const start = performance.now();
    const error = await failure(ask(router));
    const ms = performance.now() - start;
    await router.close();
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error?.retryAfterMs).toBe(10_000);
    expect(ms).toBeLessThan(1000);
    expect(mock.hits('/a/')).toBe(1);
  });

  it('bounds the wait for a concurrency slot by the call’s timeout, however often slots free', async () => {
    mock.setBehavior('/a', { delayMs: 200 });
    const router = new Router([deployment(mock, 'a', { max_parallel_requests: 1 })], { timeout: 0.5 });
    const start = performance.now();
    const ends: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        ask(router)
          .then(
            () => 'ok',
            (e: unknown) => (e as Error).name,
          )
          .finally(() => ends.push(performance.now() - start)),
      ),
    );
    await router.close();
    expect(results.filter((r) => r === 'ok').length).toBeGreaterThanOrEqual(2);
    expect(new Set(results.filter((r) => r !== 'ok'))).toEqual(new Set(['RateLimitError']));
    expect(Math.max(...ends)).toBeLessThan(1200);
    expect(mock.maxInFlight).toBe(1);
  });
});

describe('aborts are the caller’s', () => {
  it('rejects an abort during a backoff with the caller’s own reason', async () => {
    mock.setBehavior('/a', { status: 429, headers: { 'retry-after': '5' } });
    const router = new Router([deployment(mock, 'a')], { timeout: 30 });
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    setTimeout(() => controller.abort(reason), 100);
    const error = await router
      .acompletion({ model: 'gpt-4o', messages: USER }, { signal: controller.signal })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    await router.close();
    expect(error).toBe(reason);
  });

  it('never counts an abort in the middle of a stream against the deployment', async () => {
    mock.setBehavior('/a', { content: 'one two three four five six', stream: { chunkDelayMs: 30 } });
    const router = new Router(
      [deployment(mock, 'a'), deployment(mock, 'b')],
      { allowed_fails: 0 },
      {
        random: firstChoice,
      },
    );
    const failures: FailureEvent[] = [];
    router.on('failure', (e) => failures.push(e));
    let cooldowns = 0;
    router.on('cooldown', () => cooldowns++);
    for (let i = 0; i < 6; i++) {
      const controller = new AbortController();
      const stream = await router.acompletion(
        { model: 'gpt-4o', messages: USER, stream: true },
        { signal: controller.signal },
      );
      const reading = (async () => {
        for await (const _ of stream) controller.abort(new Error('stop'));
      })();
      await expect(reading).rejects.toThrow('stop');
    }
    const health = router.getDeployments();
    await router.close();
    expect(failures).toEqual([]);
    expect(cooldowns).toBe(0);
    expect(health.map((d) => [d.state, d.in_flight])).toEqual([
      ['ok', 0],
      ['ok', 0],
    ]);
  });
});

describe('a request the router cannot serialise', () => {
  const cyclic: Record<string, unknown> = { role: 'user', content: 'hi' };
  cyclic.self = cyclic;
  let deep: Record<string, unknown> = {};
  const root = deep;
  for (let i = 0; i < 100_000; i++) {
    const next = {};
    deep.a = next;
    deep = next;
  }
  const bodies: Record<string, Record<string, unknown>> = {
    'a cycle': { messages: [cyclic] },
    // in a field a provider adds: a standard one (`seed`) is refused for its type before serialising
    'a BigInt': { messages: USER, top_k: 10n },
    '100k-deep nesting': { messages: USER, metadata: undefined, extra: root },
    'a throwing toJSON': {
      messages: [
        {
          role: 'user',
          content: 'x',
          toJSON: () => {
            throw new Error('no JSON for you');
          },
        },
      ],
    },
  };

  for (const [what, body] of Object.entries(bodies)) {
    it(`with ${what} is a BadRequestError before any deployment is tried, and never counts`, async () => {
      const router = new Router([deployment(mock, 'a'), deployment(mock, 'b')], { allowed_fails: 0 });
      const failures: FailureEvent[] = [];
      router.on('failure', (e) => failures.push(e));
      const errors = [];
      for (let i = 0; i < 3; i++)
        errors.push(await failure(router.acompletion({ model: 'gpt-4o', ...body } as never)));
      const served = (await ask(router))._hidden_params.model_id;
      await router.close();
      for (const error of errors) {
        expect(error).toBeInstanceOf(BadRequestError);
        expect(error?.message).toMatch(/cannot be serialised as JSON/);
      }
      expect(failures).toEqual([]);
      expect(['a', 'b']).toContain(served);
      expect(mock.requests).toHaveLength(1);
    });
  }
});

describe('a stream returned but never read', () => {
  it('gives its max_parallel_requests slot back when its deadline closes the connection', async () => {
    mock.setBehavior('/a', { content: 'one two three', stream: { stallAfter: 2 } }); // role, a first token, silence
    const router = new Router([deployment(mock, 'a', { max_parallel_requests: 1 })], {
      stream_timeout: 0.2,
      timeout: 5,
    });
    await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true }); // never read
    const during = router.getDeployments()[0]!.in_flight;
    await new Promise((r) => setTimeout(r, 400));
    const after = router.getDeployments()[0]!;
    await router.close();
    expect(during).toBe(1);
    expect(after.in_flight).toBe(0);
    expect(after.state).toBe('ok');
  });
});

describe('a timeout under the caller’s own shorter timeout', () => {
  it('counts toward allowed_fails instead of cooling the deployment at once', async () => {
    mock.setBehavior('/a', { delayMs: 100 });
    const router = new Router(
      [deployment(mock, 'a'), deployment(mock, 'b')],
      { timeout: 30 },
      {
        random: firstChoice,
      },
    );
    let cooldowns = 0;
    router.on('cooldown', () => cooldowns++);
    await failure(router.acompletion({ model: 'gpt-4o', messages: USER, timeout: 0.02, num_retries: 0 }));
    const health = router.getDeployments();
    await router.close();
    expect(cooldowns).toBe(0);
    expect(health.map((d) => d.state)).toEqual(['ok', 'ok']);
    expect(health[0]!.failures_this_minute).toBe(1);
  });
});

describe('a timeout the router enforces (CONTRACT 6.2)', () => {
  it('counts once against allowed_fails without cooling, and cools only past allowed_fails', async () => {
    mock.setBehavior('/a', { fault: 'hang' });
    const router = new Router(
      [deployment(mock, 'a'), deployment(mock, 'b')],
      { timeout: 0.1, allowed_fails: 1 },
      // both failures in one minute of the counts, wherever the wall clock is
      { random: firstChoice, now: minuteStartClock() },
    );
    const cooldowns: number[] = [];
    router.on('cooldown', (e) => cooldowns.push(e.status));
    const first = (await ask(router))._hidden_params.model_id;
    const afterOne = router.getDeployments()[0]!;
    const second = (await ask(router))._hidden_params.model_id;
    const afterTwo = router.getDeployments()[0]!;
    await router.close();
    expect([first, second]).toEqual(['b', 'b']);
    expect([afterOne.state, afterOne.failures_this_minute]).toEqual(['ok', 1]);
    expect([afterTwo.state, afterTwo.failures_this_minute]).toEqual(['cooling', 2]);
    expect(cooldowns).toEqual([408]);
  });

  it('never cools the last healthy deployment of a group for one slow answer', async () => {
    mock.setBehavior('/a', { delayMs: 300 });
    const router = new Router(
      [deployment(mock, 'a', { timeout: 0.05 }), deployment(mock, 'f', {}, 'backup')],
      {
        fallbacks: [{ 'gpt-4o': ['backup'] }],
      },
    );
    await ask(router); // a is too slow once: served by the fallback
    mock.setBehavior('/a', {});
    const next = (await ask(router))._hidden_params.model_id;
    await router.close();
    expect(next).toBe('a');
  });

  it('still cools at once on an upstream 408', async () => {
    mock.setBehavior('/a', { status: 408 });
    const router = new Router(
      [deployment(mock, 'a'), deployment(mock, 'b')],
      { allowed_fails: 3 },
      { random: firstChoice },
    );
    const cooldowns: number[] = [];
    router.on('cooldown', (e) => cooldowns.push(e.status));
    const served = (await ask(router))._hidden_params.model_id;
    const health = router.getDeployments()[0]!;
    await router.close();
    expect(served).toBe('b');
    expect(health.state).toBe('cooling');
    expect(cooldowns).toEqual([408]);
  });
});
