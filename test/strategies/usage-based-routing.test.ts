import { describe, expect, it } from 'vitest';
import { NoDeploymentsAvailableError, Router } from '../../src/index.js';
import { usageBasedRouting } from '../../src/strategies/usage-based-routing.js';
import { seededRandom, strategyContract } from '../../src/testing/index.js';
import { deployment, USER, useMock } from '../helpers.js';
import { choose, fakeClock, group, tally } from './helpers.js';

strategyContract({ name: 'usage-based-routing', create: ({ random }) => usageBasedRouting(random) });

describe('usage-based-routing', () => {
  const candidates = group({ a: { tpm: 1_000 }, b: { rpm: 5 }, c: {} });
  const strategy = usageBasedRouting(seededRandom(1));

  it('is named for the setting and asks for minute usage', () => {
    expect(strategy.name).toBe('usage-based-routing');
    expect(strategy.needsUsage).toBe(true);
  });

  it('chooses the fewest tokens this minute among deployments under their limits', () => {
    const usage = [
      { rpm: 0, tpm: 1_000 }, // at its tpm
      { rpm: 2, tpm: 30 },
      { rpm: 9, tpm: 40 },
    ];
    expect(tally(strategy, candidates, 50, usage)).toEqual({ b: 50 });
  });

  it('leaves out a deployment at its rpm', () => {
    const usage = [
      { rpm: 0, tpm: 90 },
      { rpm: 5, tpm: 0 },
      { rpm: 0, tpm: 80 },
    ];
    expect(choose(strategy, candidates, usage)).toBe('c');
  });
});

describe('usage-based-routing through the router', () => {
  const mock = useMock();

  it('serves at most tpm tokens a minute from a deployment', async () => {
    // every call uses 40 tokens: the third one would start at 80 of a 100 tpm (allowed), the fourth at 120
    mock.setBehavior('/a', { usage: { prompt_tokens: 20, completion_tokens: 20 } });
    const clock = fakeClock();
    const router = new Router(
      [deployment(mock, 'a', { tpm: 100 })],
      { routing_strategy: 'usage-based-routing' },
      { now: clock.now },
    );
    const ask = () => router.acompletion({ model: 'gpt-4o', messages: USER });
    for (let i = 0; i < 3; i++) await ask();
    const fourth = await ask().catch((e: unknown) => e);
    clock.advance(60_000);
    await ask();
    await router.close();
    expect(fourth).toBeInstanceOf(NoDeploymentsAvailableError);
    expect(mock.hits('/a/')).toBe(4);
  });
});
