import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type DeploymentConfig,
  NoDeploymentsAvailableError,
  RedisStore,
  Router,
  type RouterSettings,
} from '../../src/index.js';
import { startDelayProxy } from '../support/tcp-faults.js';
import { flushNamespace, REDIS_URL, uniqueNamespace } from './helpers.js';

const namespace = uniqueNamespace('usage');
const onRedis = (extra: RouterSettings = {}): RouterSettings => ({
  redis_url: REDIS_URL,
  cache_kwargs: { namespace },
  routing_strategy: 'usage-based-routing-v2',
  ...extra,
});
const mocked = (id: string, params: Record<string, unknown> = {}): DeploymentConfig => ({
  model_name: 'gpt-4o',
  svc_params: { model: 'openai/gpt-4o', api_key: 'sk-mock-0000', mock_response: `from ${id}`, ...params },
  model_info: { id },
});
const ask = (router: Router) =>
  router.acompletion({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });

beforeEach(() => flushNamespace(namespace));
afterAll(() => flushNamespace(namespace));

describe('usage-based routing on Redis', () => {
  it('holds one rpm limit across two routers together', async () => {
    const minute = 29_000_000 * 60_000; // both routers in one wall-clock minute
    const deps = { now: () => minute + 1_000 };
    const one = new Router([mocked('a', { rpm: 5 })], onRedis(), deps);
    const two = new Router([mocked('a', { rpm: 5 })], onRedis(), deps);
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) {
      const router = i % 2 === 0 ? one : two;
      // counts are written after a pick without waiting: let each land before the other router reads
      await new Promise((r) => setTimeout(r, 20));
      outcomes.push(
        await ask(router).then(
          () => 'served',
          (e: unknown) => (NoDeploymentsAvailableError.isInstance(e) ? 'limited' : String(e)),
        ),
      );
    }
    await Promise.all([one.close(), two.close()]);
    expect(outcomes.filter((o) => o === 'served')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'limited')).toHaveLength(5);
  });

  it('waits for one Redis round trip per call (cooldown and usage reads go out together)', async () => {
    const delayMs = 40; // each way: a round trip is 80 ms
    const proxy = await startDelayProxy(6379, delayMs);
    // a store of its own: connecting through the slow proxy takes longer than the default command timeout
    const store = new RedisStore({
      url: `redis://127.0.0.1:${proxy.port}`,
      namespace,
      commandTimeoutMs: 2_000,
    });
    const router = new Router([mocked('a', { rpm: 1000 }), mocked('b', { rpm: 1000 })], onRedis(), { store });
    await ask(router); // connects
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      await ask(router);
      times.push(performance.now() - start);
    }
    await router.close();
    await store.close();
    await proxy.close();
    const fastest = Math.min(...times);
    expect(fastest).toBeGreaterThanOrEqual(2 * delayMs - 5);
    expect(fastest).toBeLessThan(4 * delayMs); // two round trips would take 160 ms
  });
});
