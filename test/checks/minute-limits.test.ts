import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from '../../src/checks/concurrency-limiter.js';
import { secondsToNextMinute, underLimits } from '../../src/checks/minute-limits.js';
import { UsageCounters } from '../../src/checks/usage-counters.js';
import { MemoryStore, NoDeploymentsAvailableError, Router, type Store } from '../../src/index.js';
import { candidatePool } from '../../src/router/candidates.js';
import { seededRandom, testDeployment } from '../../src/testing/index.js';
import { deployment, USER, useMock } from '../helpers.js';
import { endpoint, group, NOW, tracker } from '../router/layers/fixtures.js';
import { fakeClock } from '../strategies/helpers.js';

const MINUTE = 1_800_000_000_000; // a whole wall-clock minute

describe('underLimits', () => {
  const limited = testDeployment({ id: 'a', svc_params: { rpm: 10, tpm: 1_000 } });
  const free = testDeployment({ id: 'b' });

  it('admits a deployment below both its rpm and its tpm', () => {
    expect(underLimits(limited, { rpm: 9, tpm: 999 })).toBe(true);
  });

  it('leaves out a deployment at its rpm or at its tpm', () => {
    expect(underLimits(limited, { rpm: 10, tpm: 0 })).toBe(false);
    expect(underLimits(limited, { rpm: 0, tpm: 1_000 })).toBe(false);
  });

  it('never leaves out a deployment that sets no limit, or whose usage is unknown', () => {
    expect(underLimits(free, { rpm: 1e9, tpm: 1e9 })).toBe(true);
    expect(underLimits(limited, undefined)).toBe(true);
  });
});

describe('secondsToNextMinute', () => {
  it('counts whole seconds to the next wall-clock minute, at least 1', () => {
    expect(secondsToNextMinute(MINUTE)).toBe(60);
    expect(secondsToNextMinute(MINUTE + 30_000)).toBe(30);
    expect(secondsToNextMinute(MINUTE + 59_500)).toBe(1);
  });
});

describe('UsageCounters', () => {
  const a = testDeployment({ id: 'a' });
  const b = testDeployment({ id: 'b' });

  it('counts requests and tokens per deployment in the current minute', () => {
    const counters = new UsageCounters(new MemoryStore());
    counters.countRequest(a, MINUTE);
    counters.countRequest(a, MINUTE + 1_000);
    counters.countTokens(a, 120, MINUTE + 2_000);
    counters.countRequest(b, MINUTE + 59_999);
    expect(counters.read([a, b], MINUTE + 59_999)).toEqual([
      { rpm: 2, tpm: 120 },
      { rpm: 1, tpm: 0 },
    ]);
    expect(counters.read([a, b], MINUTE + 60_000)).toEqual([
      { rpm: 0, tpm: 0 },
      { rpm: 0, tpm: 0 },
    ]);
  });

  it('lets its keys expire two minutes after they are created', () => {
    const clock = fakeClock(MINUTE);
    const store = new MemoryStore({ now: clock.now });
    new UsageCounters(store).countRequest(a, MINUTE);
    const key = `usage:{test-model}:${MINUTE / 60_000}:rpm:a`;
    clock.advance(119_000);
    expect(store.get(key)).toBe(1);
    clock.advance(2_000);
    expect(store.get(key)).toBeUndefined();
  });

  it('answers at once, not with a Promise, when the store answers at once', () => {
    const answer = new UsageCounters(new MemoryStore()).read([a], MINUTE);
    expect(answer).not.toBeInstanceOf(Promise);
  });

  it('reads counters kept as text (as Redis returns them)', async () => {
    const store = new MemoryStore();
    store.set(`usage:{test-model}:${MINUTE / 60_000}:rpm:a`, '7');
    expect(new UsageCounters(store).read([a], MINUTE)).toEqual([{ rpm: 7, tpm: 0 }]);
  });

  it('reads a failing store as no usage known, and reports the failure', async () => {
    const errors: unknown[] = [];
    const broken = {
      getMany: () => Promise.reject(new Error('connection refused')),
      increment: () => {
        throw new Error('connection refused');
      },
    } as unknown as Store;
    const counters = new UsageCounters(broken, (e) => errors.push(e));
    expect(await counters.read([a], MINUTE)).toBeUndefined();
    counters.countRequest(a, MINUTE);
    expect(errors).toHaveLength(2);
  });
});

describe('per-minute limits as a pre-call check', () => {
  const mock = useMock();

  const served = async (router: Router, calls: number) => {
    const ids: string[] = [];
    for (let i = 0; i < calls; i++) {
      try {
        ids.push((await router.acompletion({ model: 'gpt-4o', messages: USER }))._hidden_params.model_id);
      } catch (err) {
        ids.push((err as Error).name);
      }
    }
    return ids;
  };

  it('makes rpm a rate: a deployment serves at most rpm calls a minute', async () => {
    const clock = fakeClock(MINUTE);
    const router = new Router(
      // equal weights: without the limit, a would serve about half of the calls
      [deployment(mock, 'a', { rpm: 2, weight: 1 }), deployment(mock, 'b', { weight: 1 })],
      { enable_pre_call_checks: true },
      { random: seededRandom(1), now: clock.now },
    );
    const first = await served(router, 20);
    clock.advance(60_000);
    const second = await served(router, 20);
    await router.close();
    expect(first.filter((id) => id === 'a')).toHaveLength(2);
    expect(second.filter((id) => id === 'a')).toHaveLength(2);
    expect(mock.hits('/b/')).toBe(36);
  });

  it('without pre-call checks, leaves rpm a concurrency cap only', async () => {
    const router = new Router([deployment(mock, 'a', { rpm: 2 })], {}, { now: fakeClock(MINUTE).now });
    expect(await served(router, 5)).toEqual(['a', 'a', 'a', 'a', 'a']);
    await router.close();
  });

  it('skips a deployment that used its tpm this minute', async () => {
    mock.setBehavior('/a', { usage: { prompt_tokens: 30, completion_tokens: 30 } });
    const router = new Router(
      [deployment(mock, 'a', { tpm: 100 }), deployment(mock, 'b')],
      { enable_pre_call_checks: true, routing_strategy: 'least-busy' },
      { random: seededRandom(2), now: fakeClock(MINUTE).now },
    );
    await served(router, 10);
    await router.close();
    // a serves until it has used 100 tokens: two calls of 60
    expect(mock.hits('/a/')).toBe(2);
  });

  it('says when to try again: when the minute turns', async () => {
    const router = new Router(
      [deployment(mock, 'a', { rpm: 1 })],
      { enable_pre_call_check: true },
      { now: fakeClock(MINUTE + 45_000).now },
    );
    await served(router, 1);
    const error = await router.acompletion({ model: 'gpt-4o', messages: USER }).catch((e: unknown) => e);
    await router.close();
    expect(error).toBeInstanceOf(NoDeploymentsAvailableError);
    expect((error as NoDeploymentsAvailableError).retryAfterMs).toBe(15_000);
    expect((error as Error).message).toBe(
      'No deployments available for selected model, Try again in 15 seconds. Passed model=gpt-4o. pre-call-checks=true, allowed_model_region=n/a.',
    );
  });

  it('moves to the next order tier when the first is at its limits', async () => {
    const router = new Router(
      [deployment(mock, 'primary', { rpm: 1, order: 1 }), deployment(mock, 'backup', { order: 2 })],
      { enable_pre_call_checks: true },
      { now: fakeClock(MINUTE).now },
    );
    expect(await served(router, 3)).toEqual(['primary', 'backup', 'backup']);
    await router.close();
  });

  it('counts across routers that share a store', async () => {
    const clock = fakeClock(MINUTE);
    const store = new MemoryStore({ now: clock.now });
    const list = [deployment(mock, 'a', { rpm: 3 })];
    const one = new Router(list, { enable_pre_call_checks: true }, { store, now: clock.now });
    const two = new Router(list, { enable_pre_call_checks: true }, { store, now: clock.now });
    const results = [...(await served(one, 2)), ...(await served(two, 2))];
    await one.close();
    await two.close();
    expect(results).toEqual(['a', 'a', 'a', 'NoDeploymentsAvailableError']);
  });

  it('serves every call when the store fails, without the limits', async () => {
    const failing = new MemoryStore();
    const broken = Object.assign(Object.create(failing) as MemoryStore, {
      getMany: () => Promise.reject(new Error('store down')),
      increment: () => Promise.reject(new Error('store down')),
    });
    const router = new Router(
      [deployment(mock, 'a', { rpm: 1 })],
      { enable_pre_call_checks: true },
      {
        store: broken,
      },
    );
    expect(await served(router, 3)).toEqual(['a', 'a', 'a']);
    await router.close();
  });

  it('reads no usage for a group without rpm or tpm', async () => {
    const clock = fakeClock(MINUTE);
    const store = new MemoryStore({ now: clock.now });
    const router = new Router(
      [deployment(mock, 'a')],
      { enable_pre_call_checks: true },
      { store, now: clock.now },
    );
    await served(router, 2);
    await router.close();
    expect(store.get(`usage:${MINUTE / 60_000}:rpm:a`)).toBeUndefined();
  });
});

describe('candidatePool with minute usage', () => {
  it('leaves out the deployments at their per-minute limits and counts them, keeping usage aligned', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((id) => endpoint(id, { svc_params: { rpm: 5 } }));
    const tier = group([a!, b!, c!]).tiers[0]!;
    const usage = [
      { rpm: 1, tpm: 10 },
      { rpm: 5, tpm: 20 },
      { rpm: 2, tpm: 30 },
    ];
    const pool = candidatePool(
      tier,
      {
        tracker: tracker(),
        limiter: new ConcurrencyLimiter(),
        limited: false,
        admits: undefined,
        excluded: undefined,
        timedOut: undefined,
        strictExclusion: false,
        usage,
      },
      NOW,
    );
    expect(pool.deployments.map((d) => d.id)).toEqual(['a', 'c']);
    expect(pool.usage).toEqual([usage[0], usage[2]]);
    expect(pool.overLimit).toBe(1);
    expect(pool.full).toBe(0);
  });
});
