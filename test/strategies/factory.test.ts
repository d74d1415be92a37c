import { describe, expect, it } from 'vitest';
import { BUILT_IN_STRATEGIES } from '../../src/config/settings-schema.js';
import { Router } from '../../src/index.js';
import { MemoryStore } from '../../src/stores/memory-store.js';
import { STRATEGIES } from '../../src/strategies/index.js';

const list = [{ model_name: 'm', svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test-0000' } }];

describe('the strategy table', () => {
  it('builds every strategy the settings accept, under its own name', () => {
    const deps = { random: Math.random, now: Date.now, store: new MemoryStore(), inFlight: () => 0 };
    for (const name of BUILT_IN_STRATEGIES) expect(STRATEGIES[name]?.(deps, {}).name).toBe(name);
    expect(Object.keys(STRATEGIES).sort()).toEqual([...BUILT_IN_STRATEGIES].sort());
  });

  it.each(BUILT_IN_STRATEGIES)('lets a router be built with %s', async (name) => {
    const router = new Router(list, { routing_strategy: name });
    expect(router.settings.routing_strategy).toBe(name);
    await router.close();
  });

  it('rejects a latency ttl of zero, naming the field', () => {
    expect(() => new Router(list, { routing_strategy_args: { ttl: 0 } })).toThrow(
      'routing_strategy_args.ttl',
    );
  });
});
