import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/index.js';
import { withLocalFallback } from '../../src/stores/local-fallback-store.js';
import type { Store } from '../../src/stores/store.js';

/** A store whose every operation rejects (`mode: 'reject'`) or throws, until `heal()`. */
function breakable(mode: 'reject' | 'throw') {
  const real = new MemoryStore();
  let broken = false;
  const fail = () => {
    const error = new Error('Redis INCREMENT failed: not connected');
    if (mode === 'throw') throw error;
    return Promise.reject(error);
  };
  const store: Store = {
    get: (key) => (broken ? fail() : real.get(key)),
    set: (key, value, options) => (broken ? fail() : real.set(key, value, options)),
    increment: (key, by, options) => (broken ? fail() : real.increment(key, by, options)),
    getMany: (keys) => (broken ? fail() : real.getMany(keys)),
    delete: (key) => (broken ? fail() : real.delete(key)),
  };
  return { store, real, breakDown: () => (broken = true), heal: () => (broken = false) };
}

describe('withLocalFallback', () => {
  it('answers from the shared store while it works', async () => {
    const shared = breakable('reject');
    const local = new MemoryStore();
    const store = withLocalFallback(shared.store, local);
    expect(await store.increment('rpm', 1)).toBe(1);
    expect(await store.increment('rpm', 1)).toBe(2);
    expect(shared.real.get('rpm')).toBe(2);
    expect(local.get('rpm')).toBeUndefined();
  });

  it.each(['reject', 'throw'] as const)(
    'counts in the local store while the shared one fails (%s), and in the shared one again after',
    async (mode) => {
      const shared = breakable(mode);
      const store = withLocalFallback(shared.store, new MemoryStore());
      await store.increment('rpm', 1);
      shared.breakDown();
      expect(await store.increment('rpm', 1)).toBe(1);
      expect(await store.increment('rpm', 1)).toBe(2);
      expect(await store.get('rpm')).toBe(2);
      shared.heal();
      expect(await store.increment('rpm', 1)).toBe(2);
    },
  );

  it('answers every read from the local store while the shared one fails', async () => {
    const shared = breakable('reject');
    const store = withLocalFallback(shared.store, new MemoryStore());
    shared.breakDown();
    await store.set('a', 'x');
    expect(await store.getMany(['a', 'b'])).toEqual(['x', undefined]);
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
  });
});
