import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import { type CallOutcome, type MinuteUsage, Router, type RoutingStrategy } from '../../src/index.js';
import { strategyContract } from '../../src/testing/index.js';
import type { Deployment } from '../../src/types/index.js';
import { deployment, USER, useMock } from '../helpers.js';
import { fakeClock } from './helpers.js';

/** What a user writes: round robin over the candidates, by a counter of its own. */
function roundRobin(): RoutingStrategy & { outcomes: CallOutcome[] } {
  let next = 0;
  const outcomes: CallOutcome[] = [];
  return {
    name: 'round-robin',
    outcomes,
    select: (candidates) => candidates[next++ % Math.max(1, candidates.length)],
    onOutcome: (outcome) => {
      outcomes.push(outcome);
    },
  };
}

strategyContract({ name: 'a RoutingStrategy object (round robin)', create: () => roundRobin() });

describe('a RoutingStrategy object through the router', () => {
  const mock = useMock();

  const list = () => [deployment(mock, 'a'), deployment(mock, 'b'), deployment(mock, 'c')];
  const ask = async (router: Router) =>
    (await router.acompletion({ model: 'gpt-4o', messages: USER }))._hidden_params.model_id;

  it('is accepted as routing_strategy and chooses every deployment', async () => {
    const strategy = roundRobin();
    const router = new Router(list(), { routing_strategy: strategy });
    const served: string[] = [];
    for (let i = 0; i < 6; i++) served.push(await ask(router));
    await router.close();
    expect(served).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('is told how every attempt it routed ended', async () => {
    const strategy = roundRobin();
    const router = new Router(list(), { routing_strategy: strategy });
    await ask(router);
    await router.close();
    expect(strategy.outcomes).toHaveLength(1);
    expect(strategy.outcomes[0]).toMatchObject({ model: 'gpt-4o', ok: true, stream: false });
    expect(strategy.outcomes[0]?.deployment.id).toBe('a');
    expect(strategy.outcomes[0]?.totalTokens).toBeGreaterThan(0);
  });

  it('replaces the strategy through setCustomRoutingStrategy', async () => {
    const router = new Router(list());
    router.setCustomRoutingStrategy({ name: 'last', select: (candidates) => candidates.at(-1) });
    expect(await ask(router)).toBe('c');
    await router.close();
  });

  it('gets this minute’s usage of each candidate when it asks with needsUsage', async () => {
    const seen: Array<readonly MinuteUsage[] | undefined> = [];
    const first: RoutingStrategy = {
      name: 'first-with-usage',
      needsUsage: true,
      select(candidates: readonly Deployment[], context) {
        seen.push(context.usage);
        return candidates[0];
      },
    };
    const clock = fakeClock();
    const router = new Router(
      [deployment(mock, 'a'), deployment(mock, 'b')],
      { routing_strategy: first },
      {
        now: clock.now,
      },
    );
    await ask(router);
    await ask(router);
    await router.close();
    expect(seen[0]).toEqual([
      { rpm: 0, tpm: 0 },
      { rpm: 0, tpm: 0 },
    ]);
    expect(seen[1]?.[0]?.rpm).toBe(1);
    expect(seen[1]?.[0]?.tpm).toBeGreaterThan(0);
    expect(seen[1]?.[1]).toEqual({ rpm: 0, tpm: 0 });
  });

  it('rejects an object that is no strategy, saying what a strategy is', () => {
    expect(() => new Router(list(), { routing_strategy: { pick: () => undefined } as never })).toThrow(
      ConfigError,
    );
    expect(() => new Router(list(), { routing_strategy: { pick: () => undefined } as never })).toThrow(
      'routing_strategy: expected a strategy name, a RoutingStrategy (an object with select()) or an object with asyncGetAvailableDeployment()/getAvailableDeployment()',
    );
  });
});
