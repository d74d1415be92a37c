import { describe, expect, it } from 'vitest';
import {
  InternalServerError,
  NoDeploymentsAvailableError,
  RateLimitError,
} from '../../../src/errors/classes.js';
import type { Call, History } from '../../../src/router/call.js';
import { selectLayer } from '../../../src/router/layers/select.js';
import { MemoryStore } from '../../../src/stores/memory-store.js';
import type { RoutingStrategy } from '../../../src/strategies/strategy.js';
import type { Endpoint } from '../../../src/types/index.js';
import {
  cool,
  drive,
  endpoint,
  fakeCall,
  fakeClock,
  group,
  NOW,
  noDeployments,
  pickingStrategy,
  scriptedNext,
  selectWorld,
  serverError,
  tracker,
} from './fixtures.js';

const a = endpoint('a');
const b = endpoint('b');
const c = endpoint('c');

function setUp(
  endpoints: Endpoint[],
  options: { strategy?: RoutingStrategy; limited?: boolean; weightedFailover?: boolean } = {},
) {
  const world = selectWorld();
  const clock = fakeClock();
  const strategy = options.strategy ?? pickingStrategy();
  const { next, seen } = scriptedNext();
  const select = drive(
    selectLayer(
      { ...world, now: clock.now, strategyFor: () => strategy, noDeployments },
      { limited: options.limited ?? false, weightedFailover: () => options.weightedFailover ?? false },
    )(next),
  );
  // what the attempts so far did (`excluded`, `timedOut`) goes in the call's history
  const call = ({ excluded, timedOut, ...overrides }: Partial<Call<string>> & Partial<History> = {}) => {
    const made = fakeCall(group(endpoints), overrides);
    Object.assign(made.history, { excluded, timedOut });
    return made;
  };
  return { ...world, clock, select, call, seen, strategy };
}

const chosen = async (promise: Promise<{ endpoint: Endpoint }>) => (await promise).endpoint.deployment.id;

describe('select layer', () => {
  it("picks with the group's strategy among the tier's candidates", async () => {
    const strategy = pickingStrategy('b');
    const { select, call, seen } = setUp([a, b, c], { strategy });
    const routed = call();
    expect(await chosen(select(routed))).toBe('b');
    expect(strategy.seen).toEqual([['a', 'b', 'c']]);
    expect(seen[0]?.endpoint).toBe('b');
    expect(seen[0]?.step.strategy).toBe(strategy);
  });

  it('passes the group and the request to the strategy', async () => {
    let context: unknown;
    const strategy: RoutingStrategy = {
      name: 'spy',
      select: (candidates, ctx) => {
        context = ctx;
        return candidates[0];
      },
    };
    const { select, call } = setUp([a, b], { strategy });
    const routed = call();
    await select(routed);
    expect(context).toEqual({ model: 'gpt-4o', request: routed.request });
  });

  it('takes a single candidate without asking the strategy', async () => {
    const strategy: RoutingStrategy = {
      name: 'never',
      select: () => {
        throw new Error('not asked for one candidate');
      },
    };
    const { select, call } = setUp([a], { strategy });
    expect(await chosen(select(call()))).toBe('a');
  });

  it('awaits a strategy that answers with a Promise, asking it once', async () => {
    let asked = 0;
    const strategy: RoutingStrategy = {
      name: 'async',
      select: async (candidates) => {
        asked++;
        return candidates[1];
      },
    };
    const { select, call } = setUp([a, b], { strategy });
    expect(await chosen(select(call()))).toBe('b');
    expect(asked).toBe(1);
  });

  it('reads a store that answers asynchronously once per pick', async () => {
    const store = new MemoryStore();
    let reads = 0;
    const slow = new Proxy(store, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== 'getMany' || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          reads++;
          return Promise.resolve(value.apply(target, args));
        };
      },
    });
    const strategy = pickingStrategy();
    const { next } = scriptedNext();
    const select = drive(
      selectLayer(
        {
          tracker: tracker(slow),
          limiter: selectWorld().limiter,
          now: fakeClock().now,
          strategyFor: () => strategy,
          noDeployments,
        },
        { limited: false, weightedFailover: () => false },
      )(next),
    );
    expect(await chosen(select(fakeCall(group([a, b]))))).toBe('a');
    expect(reads).toBe(1);
    expect(strategy.seen).toHaveLength(1);
  });

  it("claims the chosen deployment's slot", async () => {
    const { select, call, limiter } = setUp([a, b], { strategy: pickingStrategy('a') });
    await select(call());
    expect(limiter.inFlight('a')).toBe(1);
    expect(limiter.inFlight('b')).toBe(0);
  });

  it('never offers a cooling deployment', async () => {
    const strategy = pickingStrategy();
    const { select, call, tracker } = setUp([a, b, c], { strategy });
    cool(tracker, a);
    expect(await chosen(select(call()))).toBe('b');
    expect(strategy.seen).toEqual([['b', 'c']]);
  });

  it('fails with the "no deployments" error when every deployment is cooling', async () => {
    const { select, call, tracker } = setUp([a, b]);
    cool(tracker, a);
    cool(tracker, b);
    const error = await select(call()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoDeploymentsAvailableError);
    expect((error as Error).message).toBe('No deployments available for gpt-4o');
  });

  it('gives a half-open deployment one trial call at a time', async () => {
    const { select, call, tracker, clock } = setUp([a]);
    cool(tracker, a);
    clock.advance(a.cooldownMs);
    expect(await chosen(select(call()))).toBe('a');
    await expect(select(call())).rejects.toBeInstanceOf(NoDeploymentsAvailableError);
    tracker.released('a'); // the trial ended without telling anything: another may try
    expect(await chosen(select(call()))).toBe('a');
  });

  it('waits for a free slot when every candidate is full', async () => {
    const full = endpoint('full', { parallelLimit: 1 });
    const { select, call, limiter } = setUp([full], { limited: true });
    limiter.tryAcquire('full', 1);
    const waiting = select(call());
    setTimeout(() => limiter.release('full'), 5);
    expect(await chosen(waiting)).toBe('full');
    expect(limiter.inFlight('full')).toBe(1);
  });

  it("fails with RateLimitError when no slot frees before the call's deadline", async () => {
    const full = endpoint('full', { parallelLimit: 1 });
    const { select, call, limiter } = setUp([full], { limited: true });
    limiter.tryAcquire('full', 1);
    const started = performance.now();
    const error = await select(call({ deadline: NOW + 20 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toBe(
      "Every deployment of gpt-4o is at its max_parallel_requests, and no slot freed within the call's timeout",
    );
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('never waits for a slot on a hedge step: it runs now or not at all', async () => {
    const full = endpoint('full', { parallelLimit: 1 });
    const { select, call, limiter } = setUp([full], { limited: true });
    limiter.tryAcquire('full', 1);
    const started = performance.now();
    await expect(select(call(), { hedge: true })).rejects.toBeInstanceOf(RateLimitError);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("stops waiting for a slot when the caller aborts, with the caller's reason", async () => {
    const full = endpoint('full', { parallelLimit: 1 });
    const { select, call, limiter } = setUp([full], { limited: true });
    limiter.tryAcquire('full', 1);
    const controller = new AbortController();
    const waiting = select(call({ signal: controller.signal }));
    setTimeout(() => controller.abort('the user left'), 5);
    await expect(waiting).rejects.toBe('the user left');
    expect(limiter.inFlight('full')).toBe(1);
  });

  it("stops a backoff when the caller aborts, with the caller's reason", async () => {
    const { select, call, limiter } = setUp([a]);
    const controller = new AbortController();
    const waiting = select(call({ signal: controller.signal }), {
      backoff: { id: 'a', waitMs: 10_000, error: serverError('a') },
    });
    setTimeout(() => controller.abort('the user left'), 5);
    await expect(waiting).rejects.toBe('the user left');
    expect(limiter.inFlight('a')).toBe(0);
  });

  it('fails with a non-retryable InternalServerError naming the strategy and candidates when it chooses nothing', async () => {
    const strategy: RoutingStrategy = { name: 'choosy', select: () => undefined };
    const { select, call } = setUp([a, b], { strategy });
    const error = await select(call()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({
      message: 'routing strategy `choosy` chose no deployment for model group gpt-4o (candidates: a, b)',
      model: 'gpt-4o',
      retryable: false,
    });
  });

  it('fails with the error a strategy throws to say why it chose nothing', async () => {
    const refusal = new RateLimitError('every deployment is over its tpm');
    const strategy: RoutingStrategy = {
      name: 'throws',
      select: () => {
        throw refusal;
      },
    };
    const { select, call, limiter } = setUp([a, b], { strategy });
    await expect(select(call())).rejects.toBe(refusal);
    expect(limiter.inFlight('a') + limiter.inFlight('b')).toBe(0);
  });

  it('waits out a backoff planned for the deployment it picked, then picks again', async () => {
    const { select, call, seen } = setUp([a]);
    const started = performance.now();
    expect(await chosen(select(call(), { backoff: { id: 'a', waitMs: 30, error: serverError('a') } }))).toBe(
      'a',
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(seen[0]?.backoff).toBeUndefined();
  });

  it('does not wait for a backoff planned for another deployment', async () => {
    const { select, call, seen } = setUp([a]);
    const started = performance.now();
    expect(
      await chosen(select(call(), { backoff: { id: 'b', waitMs: 10_000, error: serverError('b') } })),
    ).toBe('a');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(seen[0]?.backoff).toBeUndefined();
  });

  it("cuts a server error's backoff to what is left of the call's deadline", async () => {
    const { select, call } = setUp([a]);
    const routed = call({ deadline: NOW + 10 });
    const started = performance.now();
    expect(
      await chosen(select(routed, { backoff: { id: 'a', waitMs: 10_000, error: serverError('a') } })),
    ).toBe('a');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('rethrows a rate limit whose backoff is longer than what is left of the deadline, claiming nothing', async () => {
    const { select, call, limiter } = setUp([a]);
    const limit = new RateLimitError('slow down', { modelId: 'a', retryAfterMs: 30_000 });
    const routed = call({ deadline: NOW + 1_000 });
    await expect(select(routed, { backoff: { id: 'a', waitMs: 30_000, error: limit } })).rejects.toBe(limit);
    expect(limiter.inFlight('a')).toBe(0);
  });

  it('never offers a deployment that timed out on this call, even when nothing else is left', async () => {
    const strategy = pickingStrategy();
    const { select, call } = setUp([a, b, c], { strategy });
    const timedOut = { excluded: new Set(['a']), timedOut: new Set(['a']) };
    expect(await chosen(select(call({ ...timedOut })))).toBe('b');
    expect(strategy.seen).toEqual([['b', 'c']]);
    const { select: alone, call: callAlone } = setUp([a]);
    await expect(alone(callAlone({ ...timedOut }))).rejects.toBeInstanceOf(NoDeploymentsAvailableError);
  });

  it('prefers deployments that have not failed this call, and reuses one when nothing else is left', async () => {
    const strategy = pickingStrategy();
    const { select, call } = setUp([a, b], { strategy });
    expect(await chosen(select(call({ excluded: new Set(['a']) })))).toBe('b');
    expect(await chosen(select(call({ excluded: new Set(['a', 'b']) })))).toBe('a');
    expect(strategy.seen).toEqual([['a', 'b']]);
  });

  it('with weighted failover on an async call, never reuses a deployment that failed it', async () => {
    const { select, call } = setUp([a, b], { weightedFailover: true });
    await expect(select(call({ excluded: new Set(['a', 'b']) }))).rejects.toBeInstanceOf(
      NoDeploymentsAvailableError,
    );
    expect(await chosen(select(call({ excluded: new Set(['a', 'b']), asyncEntry: false })))).toBe('a');
  });

  it('respects a cooldown another router wrote to a shared store', async () => {
    const store = new MemoryStore();
    const other = tracker(store);
    cool(other, a);
    const strategy = pickingStrategy();
    const ours = tracker(store);
    const clock = fakeClock();
    const { next } = scriptedNext();
    const select = drive(
      selectLayer(
        {
          tracker: ours,
          limiter: selectWorld().limiter,
          now: clock.now,
          strategyFor: () => strategy,
          noDeployments,
        },
        { limited: false, weightedFailover: () => false },
      )(next),
    );
    expect(await chosen(select(fakeCall(group([a, b]))))).toBe('b');
    expect(ours.stateOf('a', NOW).state).toBe('cooling');
  });
});
