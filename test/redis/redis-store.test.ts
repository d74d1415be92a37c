import { inspect } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisStore, type RedisStoreError } from '../../src/index.js';
import { storeContract } from '../../src/testing/index.js';
import { closedPort, startProxy } from '../support/tcp-faults.js';
import { connected, flushNamespace, monitorNamespace, REDIS_URL, uniqueNamespace } from './helpers.js';

const namespace = uniqueNamespace('store');
const PASSWORD = 'hunter2-redis-secret';
afterAll(() => flushNamespace(namespace));

storeContract({
  name: 'RedisStore',
  create: () => new RedisStore({ url: REDIS_URL, namespace }),
  realClock: true,
});

/** The commands clients send for keys of this namespace, in order. */
async function commandsOf(run: () => Promise<unknown>): Promise<string[]> {
  const monitor = await monitorNamespace(namespace);
  await run();
  await new Promise((resolve) => setTimeout(resolve, 30)); // MONITOR lines trail the replies
  monitor.stop();
  // the commands a script runs inside Redis are listed too, from `lua`: they cost no round trip
  return monitor.commands.filter((c) => c.source !== 'lua').map((c) => c.args[0]!.toLowerCase());
}

const rejection = (promise: Promise<unknown>): Promise<RedisStoreError> =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: RedisStoreError) => error,
  );

describe('RedisStore', () => {
  it('stores values as JSON under <namespace>:<key>', async () => {
    const store = new RedisStore({ url: REDIS_URL, namespace });
    await store.set('json', { a: [1, 'x'] });
    const redis = new Redis(REDIS_URL);
    const raw = await redis.get(`${namespace}:json`);
    redis.disconnect();
    await store.close();
    expect(raw).toBe('{"a":[1,"x"]}');
  });

  it('reads many keys with one MGET and increments with one script call', async () => {
    const store = new RedisStore({ url: REDIS_URL, namespace });
    await store.increment('warm'); // loads the script once
    const commands = await commandsOf(async () => {
      await store.getMany(['m1', 'm2', 'm3']);
      await store.increment('counter', 1, { ttlMs: 60_000 });
    });
    await store.close();
    expect(commands).toEqual(['mget', 'evalsha']);
  });

  it('adds fractions with INCRBYFLOAT semantics', async () => {
    const store = new RedisStore({ url: REDIS_URL, namespace });
    await store.set('f', 1.5);
    expect(await store.increment('f', 2)).toBe(3.5);
    expect(await store.increment('f', 0.25)).toBe(3.75);
    await store.close();
  });

  it('fails a command Redis does not answer within commandTimeoutMs, then fails at once for backoffMs', async () => {
    const proxy = await startProxy(6379);
    const store = new RedisStore({ port: proxy.port, namespace, commandTimeoutMs: 50, backoffMs: 200 });
    await connected(store);
    proxy.pause();
    const start = performance.now();
    const timedOut = await rejection(store.get('k'));
    const waited = performance.now() - start;
    const refused = await rejection(store.get('k'));
    const refusedAfter = performance.now() - start - waited;
    await store.close();
    await proxy.close();
    expect(timedOut.code).toBe('timeout');
    expect(timedOut.message).toBe(`Redis GET on 127.0.0.1:${proxy.port} failed: no answer within 50 ms`);
    expect(waited).toBeGreaterThanOrEqual(45);
    expect(waited).toBeLessThan(150);
    expect(refused.code).toBe('timeout');
    expect(refusedAfter).toBeLessThan(5);
  });

  it('keeps at most maxPending commands unanswered, refusing the rest at once', async () => {
    const proxy = await startProxy(6379);
    const store = new RedisStore({ port: proxy.port, namespace, commandTimeoutMs: 200, maxPending: 3 });
    await connected(store);
    proxy.pause();
    const answers = await Promise.allSettled([1, 2, 3, 4, 5].map((i) => store.get(`k${i}`)));
    await store.close();
    await proxy.close();
    const codes = answers.map((a) => (a.status === 'rejected' ? (a.reason as RedisStoreError).code : 'ok'));
    expect(codes).toEqual(['timeout', 'timeout', 'timeout', 'overloaded', 'overloaded']);
  });

  it('drops a connection that stopped answering and reconnects by itself', async () => {
    const proxy = await startProxy(6379);
    const store = new RedisStore({ port: proxy.port, namespace, commandTimeoutMs: 50, backoffMs: 50 });
    await connected(store);
    await store.set('back', 'yes');
    proxy.pause();
    await rejection(store.get('back'));
    await new Promise((resolve) => setTimeout(resolve, 300)); // past the 200 ms socket timeout
    proxy.resume();
    let value: unknown;
    const deadline = performance.now() + 2_000;
    while (value === undefined && performance.now() < deadline) {
      value = await store.get('back').catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await store.close();
    await proxy.close();
    expect(value).toBe('yes');
  });

  it('fails at once while Redis refuses connections, saying why, without the password', async () => {
    const port = await closedPort();
    const store = new RedisStore({ url: `redis://:${PASSWORD}@127.0.0.1:${port}`, namespace });
    const start = performance.now();
    const first = await rejection(store.get('k'));
    const second = await rejection(store.getMany(['a', 'b']));
    const ms = performance.now() - start;
    await store.close();
    expect(first.code).toBe('unavailable');
    expect(first.message).toMatch(
      new RegExp(`^Redis GET on 127\\.0\\.0\\.1:${port} failed: not connected \\(connect ECONNREFUSED`),
    );
    expect(second.message).toMatch(/^Redis MGET on /);
    expect(ms).toBeLessThan(100);
    expect(JSON.stringify([first.message, second.message, inspect(first), inspect(store)])).not.toContain(
      PASSWORD,
    );
  });

  it('prints where it connects and its namespace, never the password', async () => {
    const store = new RedisStore({ host: '127.0.0.1', port: 6379, password: PASSWORD, namespace: 'shown' });
    const text = inspect(store, { depth: 10 });
    await store.close();
    expect(text).toMatch(/^RedisStore \{ target: 127\.0\.0\.1:6379, namespace: shown, status: \w+ \}$/);
  });

  it('refuses commands after close, and closes twice without error', async () => {
    const store = new RedisStore({ url: REDIS_URL, namespace });
    await store.set('k', 1);
    await store.close();
    await store.close();
    const error = await rejection(store.get('k'));
    expect(error.code).toBe('closed');
  });

  it('rejects a key that holds something other than JSON, without repeating it', async () => {
    const redis = new Redis(REDIS_URL);
    await redis.set(`${namespace}:foreign`, 'not json at all');
    redis.disconnect();
    const store = new RedisStore({ url: REDIS_URL, namespace });
    const error = await rejection(store.get('foreign'));
    await store.close();
    expect(error.message).toBe('Redis on 127.0.0.1:6379: a key holds a value that is not JSON');
  });
});
