import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/index.js';

/** The behaviour every Store must have; run it against each implementation. */
export function storeContract(name: string, create: () => Promise<Store> | Store): void {
  describe(`${name} (store contract)`, () => {
    let store: Store;
    const key = (k: string) => `contract:${k}:${process.pid}`;
    beforeEach(async () => {
      store = await create();
    });
    afterEach(async () => {
      await store.close?.();
    });

    it('returns what was set, and undefined for a missing key', async () => {
      await store.set(key('a'), { n: 1, s: 'x' });
      expect(await store.get(key('a'))).toEqual({ n: 1, s: 'x' });
      expect(await store.get(key('missing'))).toBeUndefined();
    });

    it('forgets a value after its TTL', async () => {
      await store.set(key('ttl'), 'v', { ttlMs: 30 });
      expect(await store.get(key('ttl'))).toBe('v');
      await new Promise((r) => setTimeout(r, 60));
      expect(await store.get(key('ttl'))).toBeUndefined();
    });

    it('increments from zero and keeps counting', async () => {
      await store.delete(key('n'));
      expect(await store.increment(key('n'))).toBe(1);
      expect(await store.increment(key('n'), 5)).toBe(6);
      expect(await store.get(key('n'))).toBe(6);
    });

    it('reads many keys at once, in order', async () => {
      await store.set(key('m1'), 1);
      await store.set(key('m2'), 2);
      await store.delete(key('m3'));
      expect(await store.getMany([key('m1'), key('m3'), key('m2')])).toEqual([1, undefined, 2]);
    });

    it('deletes', async () => {
      await store.set(key('d'), 1);
      await store.delete(key('d'));
      expect(await store.get(key('d'))).toBeUndefined();
    });
  });
}
