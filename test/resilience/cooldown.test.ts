import { describe, expect, it } from 'vitest';
import { MemoryStore, Router } from '../../src/index.js';
import { useMock } from '../helpers.js';
import { ask, deployment, firstChoice, recordingRouter, serve, sleep } from './helpers.js';

const mock = useMock();

describe('cooldown triggers', () => {
  it('cools a deployment at once on a 429 and keeps serving from its peer', async () => {
    mock.setBehavior('/a', { status: 429 });
    const { router, cooldowns } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], {
      cooldown_time: 60,
    });
    const served = await serve(router, 6);
    await router.close();
    expect(served).toEqual(['b', 'b', 'b', 'b', 'b', 'b']);
    expect(mock.hits('/a/')).toBe(1);
    expect(cooldowns).toEqual([{ model_id: 'a', model_group: 'gpt-4o', status: 429, cooldown_time: 60 }]);
  });

  it.each([401, 404, 408])('cools a deployment at once on a %i', async (status) => {
    mock.setBehavior('/a', { status });
    const { router, cooldowns } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], {
      cooldown_time: 60,
    });
    await serve(router, 4);
    await router.close();
    expect(mock.hits('/a/')).toBe(1);
    expect(cooldowns.map((c) => [c.model_id, c.status])).toEqual([['a', status]]);
  });

  it('cools when failures in the current minute exceed allowed_fails (on failure allowed_fails + 1)', async () => {
    mock.setBehavior('/a', { status: 500 });
    const { router, cooldowns } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], {
      allowed_fails: 2,
      cooldown_time: 60,
    });
    const served = await serve(router, 8);
    await router.close();
    expect(served.every((id) => id === 'b')).toBe(true);
    expect(mock.hits('/a/')).toBe(3);
    expect(cooldowns).toHaveLength(1);
  });

  it('cools when more than half of at least 5 calls this minute failed', async () => {
    const { router, cooldowns } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], {
      allowed_fails: 100,
      cooldown_time: 60,
    });
    await serve(router, 2); // two successes on a
    mock.setBehavior('/a', { status: 500 });
    await serve(router, 2); // a: 2 of 4 failed: not above half
    expect(cooldowns).toHaveLength(0);
    await serve(router, 1); // a: 3 of 5 failed
    expect(cooldowns.map((c) => c.model_id)).toEqual(['a']);
    await serve(router, 3);
    await router.close();
    expect(mock.hits('/a/')).toBe(5);
  });

  it('counts 429s against RateLimitErrorAllowedFails instead of cooling at once when it is set', async () => {
    mock.setBehavior('/a', { status: 429, headers: { 'retry-after-ms': '0' } });
    const { router, cooldowns } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], {
      allowed_fails_policy: { RateLimitErrorAllowedFails: 2 },
      cooldown_time: 60,
      num_retries: 1,
    });
    await serve(router, 5);
    await router.close();
    expect(mock.hits('/a/')).toBe(3);
    expect(cooldowns).toHaveLength(1);
  });

  it('never cools for a bad request: the request was at fault, not the deployment', async () => {
    mock.setBehavior('/a', { status: 400 });
    const { router, cooldowns } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], {
      allowed_fails: 0,
    });
    await serve(router, 3);
    await router.close();
    expect(cooldowns).toHaveLength(0);
    expect(mock.hits('/a/')).toBe(3);
  });
});

describe('cooldown scope and settings', () => {
  it('never cools the only deployment of a group', async () => {
    mock.setBehavior('/a', { status: 429, failTimes: 2, headers: { 'retry-after-ms': '5' } });
    const { router, cooldowns } = recordingRouter([deployment(mock, 'a')]);
    const res = await ask(router);
    await router.close();
    expect(res._hidden_params).toMatchObject({ model_id: 'a', attempts: 3 });
    expect(cooldowns).toHaveLength(0);
  });

  it('honours a deployment’s cooldown_time: 0 (never cooled)', async () => {
    mock.setBehavior('/a', { status: 429, headers: { 'retry-after-ms': '0' } });
    const { router, cooldowns } = recordingRouter(
      [deployment(mock, 'a', { cooldown_time: 0 }), deployment(mock, 'b')],
      {
        num_retries: 1,
      },
    );
    await serve(router, 3);
    await router.close();
    expect(cooldowns).toHaveLength(0);
    expect(mock.hits('/a/')).toBe(3);
  });

  it('disable_cooldowns turns cooling off for every deployment', async () => {
    mock.setBehavior('/a', { status: 401 });
    const { router, cooldowns } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], {
      disable_cooldowns: true,
    });
    await serve(router, 3);
    await router.close();
    expect(cooldowns).toHaveLength(0);
    expect(mock.hits('/a/')).toBe(3);
  });

  it('uses a deployment’s own cooldown_time over the router’s', async () => {
    mock.setBehavior('/a', { status: 429 });
    const { router, cooldowns } = recordingRouter(
      [deployment(mock, 'a', { cooldown_time: 0.05 }), deployment(mock, 'b')],
      {
        cooldown_time: 60,
      },
    );
    await serve(router, 1);
    await router.close();
    expect(cooldowns[0]?.cooldown_time).toBe(0.05);
  });
});

describe('recovery', () => {
  it('sends a single trial call to a half-open deployment until it succeeds, then full traffic', async () => {
    mock.setBehavior('/a', { status: 429, failTimes: 1 });
    const { router } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], {
      cooldown_time: 0.05,
    });
    await serve(router, 1); // a fails and cools; b serves
    await sleep(80);
    mock.setBehavior('/a', { delayMs: 60 });
    const served = await Promise.all(
      Array.from({ length: 4 }, () => ask(router).then((r) => r._hidden_params.model_id)),
    );
    expect(served.filter((id) => id === 'a')).toHaveLength(1); // the trial
    expect(await serve(router, 2)).toEqual(['a', 'a']); // fully back
    await router.close();
  });

  it('cools a half-open deployment again when its trial fails', async () => {
    mock.setBehavior('/a', { status: 503 });
    // a cooldown that the two calls after the trial (the first of the three) stay well within, on a
    // loaded machine too
    const { router, cooldowns } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], {
      cooldown_time: 0.25,
      allowed_fails: 0,
    });
    await serve(router, 1);
    await sleep(300);
    await serve(router, 3);
    await router.close();
    expect(cooldowns.map((c) => c.model_id)).toEqual(['a', 'a']);
    expect(mock.hits('/a/')).toBe(2);
  });

  it('resets the failure count once the deployment is healthy again', async () => {
    mock.setBehavior('/a', { status: 500 });
    const { router, cooldowns } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], {
      cooldown_time: 0.05,
      allowed_fails: 1,
    });
    await serve(router, 2); // a fails twice: cooled
    await sleep(80);
    mock.setBehavior('/a', {});
    await serve(router, 1); // trial succeeds: counts reset
    mock.setBehavior('/a', { status: 500 });
    await serve(router, 1); // one new failure: not above allowed_fails (1)
    expect(cooldowns).toHaveLength(1);
    await serve(router, 1); // second new failure cools it
    await router.close();
    expect(cooldowns).toHaveLength(2);
  });

  it('never lets the stored cooldown outlive cooldown_time', async () => {
    mock.setBehavior('/a', { status: 429 });
    const store = new MemoryStore();
    const router = new Router(
      [deployment(mock, 'a'), deployment(mock, 'b')],
      { cooldown_time: 0.25 },
      { store, random: firstChoice },
    );
    await serve(router, 1);
    expect(await store.get('cooldown:{gpt-4o}:a')).toBeDefined();
    await sleep(300);
    expect(await store.get('cooldown:{gpt-4o}:a')).toBeUndefined();
    await router.close();
  });
});
