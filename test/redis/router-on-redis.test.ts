import { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type ConfigError,
  type DeploymentConfig,
  type Logger,
  MemoryStore,
  RedisStore,
  Router,
  type RouterErrorEvent,
  type RouterSettings,
} from '../../src/index.js';
import { useMock } from '../helpers.js';
import { ask, deployment, firstChoice } from '../resilience/helpers.js';
import { exposeGc } from '../support/expose-gc.js';
import { closedPort, startBlackHole, startProxy } from '../support/tcp-faults.js';
import { flushNamespace, monitorNamespace, REDIS_URL, uniqueNamespace } from './helpers.js';

const namespace = uniqueNamespace('router');
const onRedis: RouterSettings = { redis_url: REDIS_URL, cache_kwargs: { namespace } };
const PASSWORD = 'hunter2-redis-secret';

const mock = useMock();
beforeEach(async () => {
  await flushNamespace(namespace);
});
afterAll(async () => {
  await flushNamespace(namespace);
});

/** A group of deployments that answer without calling a provider: calls cost only the router's work. */
const mocked = (...ids: string[]): DeploymentConfig[] =>
  ids.map((id) => ({
    model_name: 'gpt-4o',
    svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test-0000', mock_response: `from ${id}` },
    model_info: { id },
  }));

/** A logger that keeps every line. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (message: string, fields?: unknown) => {
    lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
  };
  return { lines, debug: log, info: log, warn: log, error: log };
}

const timed = async <T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
};

describe('routers on one Redis', () => {
  it('agree on a cooldown: one cools a deployment, the other does not pick it', async () => {
    mock.setBehavior('/a', { status: 500 });
    const list = [deployment(mock, 'a'), deployment(mock, 'b')];
    const one = new Router(list, { ...onRedis, allowed_fails: 0 }, { random: firstChoice });
    const two = new Router(list, { ...onRedis, allowed_fails: 100 }, { random: firstChoice });
    await ask(one); // a fails: cooled, written to Redis; b serves
    const served = await ask(two);
    await Promise.all([one.close(), two.close()]);
    expect(served._hidden_params.model_id).toBe('b');
    expect(served._hidden_params.attempts).toBe(1);
    expect(mock.hits('/a/')).toBe(1);
  });

  it('reads a group’s cooldowns with one Redis command per call, its keys on one hash slot', async () => {
    const router = new Router(mocked('x', 'y', 'z'), onRedis);
    await ask(router); // connected
    const monitor = await monitorNamespace(namespace);
    for (let i = 0; i < 5; i++) await ask(router);
    await new Promise((resolve) => setTimeout(resolve, 50)); // MONITOR lines arrive after the replies
    monitor.stop();
    await router.close();
    expect(monitor.commands).toHaveLength(5);
    for (const [command, ...keys] of monitor.commands.map((c) => c.args)) {
      expect(command?.toLowerCase()).toBe('mget');
      expect(keys).toEqual(['x', 'y', 'z'].map((id) => `${namespace}:cooldown:{gpt-4o}:${id}`));
    }
  });

  it('writes a cooldown under the namespace with a TTL of cooldown_time', async () => {
    mock.setBehavior('/a', { status: 500 });
    const list = [deployment(mock, 'a'), deployment(mock, 'b')];
    const router = new Router(
      list,
      { ...onRedis, allowed_fails: 0, cooldown_time: 7 },
      { random: firstChoice },
    );
    await ask(router);
    await router.close();
    const redis = new Redis(REDIS_URL);
    const ttl = await redis.pttl(`${namespace}:cooldown:{gpt-4o}:a`);
    redis.disconnect();
    expect(ttl).toBeGreaterThan(6_000);
    expect(ttl).toBeLessThanOrEqual(7_000);
  });
});

describe('the response cache on Redis', () => {
  it('is shared by two routers: the second answers from the first one’s call', async () => {
    const settings = { ...onRedis, cache_responses: true };
    const one = new Router([deployment(mock, 'a')], settings);
    const two = new Router([deployment(mock, 'a')], settings);
    await ask(one);
    const second = await ask(two);
    await Promise.all([one.close(), two.close()]);
    expect(mock.hits('/a/')).toBe(1);
    expect(second._hidden_params.cache_hit).toBe(true);
  });
});

describe('the store of a router', () => {
  it('is the injected one when a store is given, whatever the redis_* settings say', async () => {
    mock.setBehavior('/a', { status: 500 });
    const store = new MemoryStore();
    const unreachable = { redis_host: '127.0.0.1', redis_port: await closedPort() };
    const list = [deployment(mock, 'a'), deployment(mock, 'b')];
    const one = new Router(list, { ...unreachable, allowed_fails: 0 }, { random: firstChoice, store });
    const two = new Router(list, { ...unreachable, allowed_fails: 100 }, { random: firstChoice, store });
    const errors: RouterErrorEvent[] = [];
    two.on('error', (e) => errors.push(e));
    await ask(one);
    const served = await ask(two);
    await Promise.all([one.close(), two.close()]);
    expect(served._hidden_params.model_id).toBe('b');
    expect(errors).toEqual([]);
  });

  it('is closed again when the model list fails construction, leaving no connection open', async () => {
    const sockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
    await new Promise((resolve) => setTimeout(resolve, 100)); // the namespace flush's connection closes
    const before = sockets();
    const bad = [{ model_name: 'x', svc_params: { model: 'no-such-provider/x' } }] as DeploymentConfig[];
    expect(() => new Router(bad, onRedis)).toThrow(/Invalid model list/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sockets()).toBe(before);
  });

  it('is built once: updateSettings that would change it fails and changes nothing', async () => {
    const router = new Router(mocked('x'), onRedis);
    const error = (() => {
      try {
        router.updateSettings({ cache_kwargs: { namespace: 'another' } });
      } catch (e) {
        return e as ConfigError;
      }
    })();
    router.updateSettings({ num_retries: 1, cache_kwargs: { namespace } }); // same store: fine
    const served = await ask(router);
    await router.close();
    expect(error?.message).toBe(
      'Invalid router settings: redis_*, cache_kwargs.namespace: the store is built once, with the router; create a new Router to change it',
    );
    expect(router.settings.cache_kwargs?.namespace).toBe(namespace);
    expect(served._hidden_params.model_id).toBe('x');
  });
});

describe('a router whose Redis is unreachable', () => {
  it.each([
    ['hangs (accepts and never answers)', 'black hole'],
    ['refuses connections', 'closed port'],
  ])('serves every call when Redis %s, with bounded latency and one error event', async (_, kind) => {
    const blackHole = kind === 'black hole' ? await startBlackHole() : undefined;
    const port = blackHole?.port ?? (await closedPort());
    const logger = recordingLogger();
    const router = new Router(
      mocked('x', 'y'),
      { redis_host: '127.0.0.1', redis_port: port, redis_password: PASSWORD },
      { logger },
    );
    const errors: RouterErrorEvent[] = [];
    router.on('error', (e) => errors.push(e));
    const latencies: number[] = [];
    for (let i = 0; i < 200; i++) {
      const { value, ms } = await timed(() => ask(router));
      expect(value.choices[0]?.message.content).toMatch(/^from [xy]$/);
      latencies.push(ms);
    }
    await router.close();
    await blackHole?.close();
    latencies.sort((a, b) => a - b);
    // at most the command timeout (250 ms) for the first call, then Redis is not waited for
    expect(latencies.at(-1)).toBeLessThan(350);
    expect(latencies[197]).toBeLessThan(25);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.source).toBe('store');
    const message = (errors[0]!.error as Error).message;
    expect(message).toMatch(new RegExp(`^Redis MGET on 127\\.0\\.0\\.1:${port} failed: `));
    const warnings = logger.lines.filter((l) => l.includes('shared store failed'));
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify([message, logger.lines])).not.toContain(PASSWORD);
  });

  it('keeps memory bounded over 5,000 calls while Redis hangs', async () => {
    const blackHole = await startBlackHole();
    const router = new Router(mocked('x', 'y'), { redis_host: '127.0.0.1', redis_port: blackHole.port });
    const gc = exposeGc();
    for (let i = 0; i < 500; i++) await ask(router); // warm up
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 5_000; i++) await ask(router);
    gc();
    const grownMb = (process.memoryUsage().heapUsed - before) / 2 ** 20;
    await router.close();
    await blackHole.close();
    expect(grownMb).toBeLessThan(2);
  });
});

describe('shared state after an outage', () => {
  it('resumes when Redis answers again: a cooldown set by another router is honoured', async () => {
    const proxy = await startProxy(6379);
    const list = [deployment(mock, 'a'), deployment(mock, 'b')];
    const logger = recordingLogger();
    const store = new RedisStore({ port: proxy.port, namespace, commandTimeoutMs: 50, backoffMs: 100 });
    const behind = new Router(list, { allowed_fails: 100 }, { random: firstChoice, store, logger });
    const errors: RouterErrorEvent[] = [];
    behind.on('error', (e) => errors.push(e));
    const direct = new Router(list, { ...onRedis, allowed_fails: 0 }, { random: firstChoice });
    expect((await ask(behind))._hidden_params.model_id).toBe('a'); // connected, a healthy

    // silent for 500 ms: long enough for the silent connection to be dropped and reconnects to fail
    proxy.pause();
    const pausedLatencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const { value, ms } = await timed(() => ask(behind));
      expect(value._hidden_params.model_id).toBe('a');
      pausedLatencies.push(ms);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(Math.max(...pausedLatencies)).toBeLessThan(150); // the command timeout is 50 ms
    expect(errors).toHaveLength(1);

    proxy.resume();
    const resumedAt = performance.now();
    mock.setBehavior('/a', { status: 500 });
    await ask(direct); // cools a in Redis
    // the router behind the proxy never cools a itself (allowed_fails: 100): served by b on the first
    // attempt means it read the other router's cooldown from Redis
    let honouredAfterMs: number | undefined;
    const recovered = () => logger.lines.some((l) => l.includes('shared store answers again'));
    while (performance.now() - resumedAt < 3_000 && !(honouredAfterMs !== undefined && recovered())) {
      const served = await ask(behind);
      if (honouredAfterMs === undefined && served._hidden_params.attempts === 1)
        honouredAfterMs = performance.now() - resumedAt;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all([behind.close(), direct.close(), store.close()]);
    await proxy.close();
    expect(honouredAfterMs).toBeLessThan(1_500);
    expect(recovered()).toBe(true);
    expect(errors).toHaveLength(1);
  });
});
