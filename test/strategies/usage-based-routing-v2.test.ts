import { describe, expect, it } from 'vitest';
import { NoDeploymentsAvailableError, Router } from '../../src/index.js';
import { usageBasedRoutingV2 } from '../../src/strategies/usage-based-routing-v2.js';
import { seededRandom, strategyContract } from '../../src/testing/index.js';
import { deployment, USER, useMock } from '../helpers.js';
import { CountingStore, choose, fakeClock, group, PipelinedStore, tally } from './helpers.js';

strategyContract({ name: 'usage-based-routing-v2', create: ({ random }) => usageBasedRoutingV2(random) });

describe('usage-based-routing-v2', () => {
  const candidates = group({ a: { rpm: 10, tpm: 1_000 }, b: { rpm: 10, tpm: 1_000 }, c: {} });
  const strategy = usageBasedRoutingV2(seededRandom(1));

  it('asks the router for the candidates’ minute usage', () => {
    expect(strategy.needsUsage).toBe(true);
  });

  it('chooses the deployment that used the fewest tokens this minute', () => {
    const usage = [
      { rpm: 3, tpm: 400 },
      { rpm: 5, tpm: 90 },
      { rpm: 1, tpm: 300 },
    ];
    expect(tally(strategy, candidates, 50, usage)).toEqual({ b: 50 });
  });

  it('leaves out a deployment at its rpm, however few tokens it used', () => {
    const usage = [
      { rpm: 10, tpm: 0 },
      { rpm: 2, tpm: 500 },
      { rpm: 0, tpm: 600 },
    ];
    expect(choose(strategy, candidates, usage)).toBe('b');
  });

  it('leaves out a deployment at its tpm', () => {
    const usage = [
      { rpm: 0, tpm: 1_000 },
      { rpm: 0, tpm: 1_200 },
      { rpm: 0, tpm: 5_000 },
    ];
    // c sets no limit: it is never left out
    expect(choose(strategy, candidates, usage)).toBe('c');
  });

  it('breaks ties at random, not by list order', () => {
    const usage = [
      { rpm: 1, tpm: 100 },
      { rpm: 4, tpm: 100 },
      { rpm: 0, tpm: 100 },
    ];
    const counts = tally(usageBasedRoutingV2(seededRandom(2)), candidates, 600, usage);
    // 200 each expected; bounds about 4.6 standard deviations
    for (const id of ['a', 'b', 'c']) expect(counts[id]).toBeGreaterThan(140);
  });

  it('chooses any candidate when no usage is known (the store could not be read)', () => {
    const counts = tally(usageBasedRoutingV2(seededRandom(3)), candidates, 300);
    expect(Object.keys(counts).sort()).toEqual(['a', 'b', 'c']);
  });

  it('never chooses none while a deployment is under its limits', () => {
    const random = seededRandom(4);
    const limited = group({ a: { rpm: 3, tpm: 300 }, b: { rpm: 2 }, c: { tpm: 100 } });
    for (let i = 0; i < 500; i++) {
      const usage = limited.map(() => ({ rpm: Math.floor(random() * 4), tpm: Math.floor(random() * 400) }));
      const under = limited.filter((d, j) => {
        const { rpm = Infinity, tpm = Infinity } = d.params;
        return usage[j]!.rpm < rpm && usage[j]!.tpm < tpm;
      });
      const chosen = choose(strategy, limited, usage);
      if (under.length === 0) expect(chosen).toBeUndefined();
      else expect(under.map((d) => d.id)).toContain(chosen);
    }
  });
});

describe('usage-based-routing-v2 through the router', () => {
  const mock = useMock();

  const ask = (router: Router) => router.acompletion({ model: 'gpt-4o', messages: USER });
  const served = async (router: Router, calls: number) => {
    const ids: string[] = [];
    for (let i = 0; i < calls; i++) {
      try {
        ids.push((await ask(router))._hidden_params.model_id);
      } catch (err) {
        ids.push((err as Error).name);
      }
    }
    return ids;
  };

  it('respects rpm over the wall-clock minute, then serves again when the minute turns', async () => {
    const clock = fakeClock();
    const router = new Router(
      [deployment(mock, 'a', { rpm: 2 }), deployment(mock, 'b', { rpm: 3 })],
      { routing_strategy: 'usage-based-routing-v2' },
      { random: seededRandom(5), now: clock.now },
    );
    const first = await served(router, 5);
    const over = await ask(router).catch((e: unknown) => e);
    clock.advance(60_000);
    const next = await served(router, 5);
    await router.close();
    expect(first.filter((id) => id === 'a')).toHaveLength(2);
    expect(first.filter((id) => id === 'b')).toHaveLength(3);
    expect(over).toBeInstanceOf(NoDeploymentsAvailableError);
    expect((over as Error).message).toBe(
      'No deployments available for selected model, Try again in 60 seconds. Passed model=gpt-4o. pre-call-checks=false, allowed_model_region=n/a.',
    );
    expect(next.sort()).toEqual(['a', 'a', 'b', 'b', 'b']);
    expect(mock.hits('/a/')).toBe(4);
    expect(mock.hits('/b/')).toBe(6);
  });

  it('sends calls to the deployment that used the fewest tokens this minute', async () => {
    mock.setBehavior('/big', { usage: { prompt_tokens: 500, completion_tokens: 500 } });
    mock.setBehavior('/small', { usage: { prompt_tokens: 5, completion_tokens: 5 } });
    const router = new Router(
      [deployment(mock, 'big'), deployment(mock, 'small')],
      { routing_strategy: 'usage-based-routing-v2' },
      { random: seededRandom(6) },
    );
    await served(router, 20);
    await router.close();
    // at most one call lands on `big` (while both are at 0 tokens); then `small` stays below 1,000
    expect(mock.hits('/big/')).toBeLessThanOrEqual(1);
    expect(mock.hits('/small/')).toBeGreaterThanOrEqual(19);
  });

  it('holds one rpm limit across routers that share a store', async () => {
    const clock = fakeClock();
    const store = new CountingStore({ now: clock.now });
    const list = [deployment(mock, 'a', { rpm: 4 })];
    const settings = { routing_strategy: 'usage-based-routing-v2' as const };
    const one = new Router(list, settings, { store, now: clock.now });
    const two = new Router(list, settings, { store, now: clock.now });
    const results = [...(await served(one, 2)), ...(await served(two, 2)), ...(await served(one, 1))];
    await one.close();
    await two.close();
    expect(results).toEqual(['a', 'a', 'a', 'a', 'NoDeploymentsAvailableError']);
    expect(mock.hits('/a/')).toBe(4);
  });

  it('reads usage in one round trip per call, with the cooldown read, and never waits for a write', async () => {
    const clock = fakeClock();
    const store = new PipelinedStore(clock.now);
    const router = new Router(
      [deployment(mock, 'a', { rpm: 100 }), deployment(mock, 'b', { rpm: 100 }), deployment(mock, 'c')],
      { routing_strategy: 'usage-based-routing-v2' },
      { store, now: clock.now, random: seededRandom(7) },
    );
    const calls = 10;
    await served(router, calls);
    await new Promise((r) => setImmediate(r)); // the last writes land
    await router.close();
    // per call: one round trip carrying both reads (cooldowns and usage: two getMany), and two writes
    // sent without waiting (the request, when routed; the tokens, when the usage is known)
    expect(store.readRoundTrips).toBe(calls);
    expect(store.commands.getMany).toBe(2 * calls);
    expect(store.commands.increment).toBe(2 * calls);
    expect(store.commands.get).toBe(0);
  });
});
