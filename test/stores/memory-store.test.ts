import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/index.js';
import { storeContract } from '../../src/testing/index.js';

storeContract({ name: 'MemoryStore', create: ({ now }) => new MemoryStore({ now }), synchronous: true });

describe('MemoryStore', () => {
  it('keeps at most maxKeys, dropping the least recently used', () => {
    const store = new MemoryStore({ maxKeys: 2 });
    store.set('a', 1);
    store.set('b', 2);
    store.get('a');
    store.set('c', 3);
    expect(store.getMany(['a', 'b', 'c'])).toEqual([1, undefined, 3]);
  });

  it('refuses a maxKeys that is not a whole number of at least 1, naming it', () => {
    expect(() => new MemoryStore({ maxKeys: 0 })).toThrow(RangeError);
    expect(() => new MemoryStore({ maxKeys: 2.5 })).toThrow(/^MemoryStore maxKeys: /);
  });

  it('returns the object it was given, not a copy (values are read-only)', () => {
    const store = new MemoryStore();
    const value = { n: 1 };
    store.set('k', value);
    expect(store.get('k')).toBe(value);
  });

  it('measures TTLs with the injected clock, even one that starts at 0', () => {
    let t = 0;
    const store = new MemoryStore({ now: () => t });
    store.set('k', 'v', { ttlMs: 100 });
    t = 100;
    expect(store.get('k')).toBe('v');
    t = 101;
    expect(store.get('k')).toBeUndefined();
  });

  it('measures TTLs with the real clock by default', async () => {
    const store = new MemoryStore();
    store.set('k', 'v', { ttlMs: 20 });
    expect(store.get('k')).toBe('v');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.get('k')).toBeUndefined();
  });
});
