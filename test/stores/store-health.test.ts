import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/index.js';
import type { Store } from '../../src/stores/store.js';
import { healthOf, StoreHealth, watchedStore } from '../../src/stores/store-health.js';

function recorded(quietMs = 1_000) {
  let t = 0;
  const outages: unknown[] = [];
  const recoveries: number[] = [];
  const health = new StoreHealth(
    { outage: (error) => outages.push(error), recovered: (downMs) => recoveries.push(downMs) },
    () => t,
    quietMs,
  );
  return { health, outages, recoveries, advance: (ms: number) => (t += ms) };
}

describe('StoreHealth', () => {
  it('reports an outage once, at the first failure', () => {
    const { health, outages, advance } = recorded();
    health.failed(new Error('first'));
    advance(10);
    health.failed(new Error('second'));
    health.failed(new Error('third'));
    expect(outages).toEqual([new Error('first')]);
    expect(health.down).toBe(true);
  });

  it('reports the recovery at the first success after a quiet period, with how long it was down', () => {
    const { health, recoveries, advance } = recorded(1_000);
    health.failed(new Error('down'));
    advance(400);
    health.failed(new Error('still down'));
    advance(999);
    health.succeeded(); // only 999 ms since the last failure
    expect(recoveries).toEqual([]);
    advance(1);
    health.succeeded();
    expect(recoveries).toEqual([1_400]);
    expect(health.down).toBe(false);
  });

  it('counts a store that fails now and then between successes as one outage', () => {
    const { health, outages, recoveries, advance } = recorded(1_000);
    for (let i = 0; i < 50; i++) {
      health.failed(new Error('timeout'));
      advance(100);
      health.succeeded();
      advance(100);
    }
    expect(outages).toHaveLength(1);
    expect(recoveries).toHaveLength(0);
  });

  it('tells every listener of one outage and one recovery', () => {
    const { health, outages, recoveries, advance } = recorded(1_000);
    const second: string[] = [];
    health.listen({ outage: () => second.push('outage'), recovered: () => second.push('recovered') });
    health.failed(new Error('down'));
    health.failed(new Error('still down'));
    advance(1_000);
    health.succeeded();
    expect([outages.length, recoveries.length]).toEqual([1, 1]);
    expect(second).toEqual(['outage', 'recovered']);
  });

  it('reports a second outage after a recovery', () => {
    const { health, outages, recoveries, advance } = recorded(1_000);
    health.failed(new Error('one'));
    advance(1_000);
    health.succeeded();
    health.failed(new Error('two'));
    expect(outages).toHaveLength(2);
    expect(recoveries).toHaveLength(1);
  });
});

describe('watchedStore', () => {
  it('passes synchronous answers through unchanged, without a Promise', () => {
    const { health } = recorded();
    const store = watchedStore(new MemoryStore(), health);
    store.set('k', { n: 1 });
    expect(store.get('k')).toEqual({ n: 1 });
    expect(store.increment('n', 2)).toBe(2);
    expect(store.getMany(['k', 'missing'])).toEqual([{ n: 1 }, undefined]);
  });

  it('reports a rejected answer and rejects with the same error', async () => {
    const { health, outages } = recorded();
    const error = new Error('Redis GET failed');
    const failing = { get: () => Promise.reject(error) } as unknown as Store;
    await expect(watchedStore(failing, health).get('k')).rejects.toBe(error);
    expect(outages).toEqual([error]);
  });

  it('reports a thrown error and throws it on', () => {
    const { health, outages } = recorded();
    const error = new Error('boom');
    const throwing = {
      getMany: () => {
        throw error;
      },
    } as unknown as Store;
    expect(() => watchedStore(throwing, health).getMany(['k'])).toThrow(error);
    expect(outages).toEqual([error]);
  });

  it('reports a resolved answer as a success', async () => {
    const { health, recoveries, advance } = recorded(0);
    health.failed(new Error('down'));
    advance(5);
    const resolving = { get: () => Promise.resolve('v') } as unknown as Store;
    expect(await watchedStore(resolving, health).get('k')).toBe('v');
    expect(recoveries).toEqual([5]);
  });

  it('is found again on the store it watches, and on no other store', () => {
    const { health } = recorded();
    expect(healthOf(watchedStore(new MemoryStore(), health))).toBe(health);
    expect(healthOf(new MemoryStore())).toBeUndefined();
  });
});
