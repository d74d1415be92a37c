import { isPromise, type MaybePromise, type Store } from '../stores/store.js';
import { vitestApi } from './vitest-api.js';

/** What `storeContract` passes to `create`. */
export interface StoreContractDeps {
  /** The test's clock, in milliseconds: a fake one that TTL tests move forward instead of sleeping. */
  now: () => number;
}

/** How `storeContract` builds and treats the store under test. */
export interface StoreContractOptions {
  /** Names the suite: `<name> (store contract)`. */
  name: string;
  /** Builds a fresh store for each test; give it `now` if it can measure TTLs with an injected clock. */
  create(deps: StoreContractDeps): MaybePromise<Store>;
  /**
   * The store measures TTLs with its own clock and cannot take `now` (Redis): TTL tests then wait for
   * real, 100 ms at most each.
   * @default false
   */
  realClock?: boolean;
  /**
   * Every method answers with the value itself, never a Promise (an in-memory store): asserted on every
   * call.
   * @default false
   */
  synchronous?: boolean;
}

/** A TTL long enough to survive the test's own work when measured by a real clock. */
const REAL_TTL_MS = 50;
const FAKE_TTL_MS = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The behaviour every `Store` must have, as a vitest suite: get/set, TTLs, increments, getMany, delete
 * and odd keys. Values are JSON data; a store may return the object it was given (memory) or a copy
 * (Redis), so the suite compares by value and callers treat values as read-only. Every test writes its
 * own keys under a per-run prefix and deletes them after, so a shared Redis can be used.
 * @example storeContract({ name: 'MemoryStore', create: ({ now }) => new MemoryStore({ now }), synchronous: true });
 * @throws when called outside a vitest run (vitest is an optional peer dependency).
 */
export function storeContract(options: StoreContractOptions): void {
  const { describe, it, expect, beforeEach, afterEach } = vitestApi('storeContract');
  const { name, create, realClock = false, synchronous = false } = options;
  const ttlMs = realClock ? REAL_TTL_MS : FAKE_TTL_MS;
  // How far to move time to stand just before a TTL's end, then just past it.
  const justBefore = realClock ? 0 : ttlMs - 1;
  const pastIt = realClock ? 2 * ttlMs : 2;
  const prefix = `svc-router-contract:${process.pid}:${Math.random().toString(36).slice(2, 8)}:`;

  describe(`${name} (store contract)`, () => {
    let clock = 0;
    let raw: Store;
    let store: Store;
    let written: Set<string>;
    const elapse = async (ms: number) => {
      if (realClock) await sleep(ms);
      else clock += ms;
    };
    const key = (k: string) => {
      written.add(prefix + k);
      return prefix + k;
    };

    beforeEach(async () => {
      clock = 1_000_000;
      written = new Set();
      raw = await create({ now: () => clock });
      store = answering(raw, synchronous, expect);
    });
    afterEach(async () => {
      for (const k of written) await store.delete(k);
      await store.close?.();
    });

    it('returns what was set', async () => {
      await store.set(key('a'), { n: 1, s: 'x', list: [1, { deep: true }] });
      expect(await store.get(key('a'))).toEqual({ n: 1, s: 'x', list: [1, { deep: true }] });
    });

    it('answers undefined for a key never set', async () => {
      expect(await store.get(key('never'))).toBeUndefined();
    });

    it('replaces a value set again', async () => {
      await store.set(key('r'), 'first');
      await store.set(key('r'), 'second');
      expect(await store.get(key('r'))).toBe('second');
    });

    it('keeps every kind of JSON value, null apart from missing', async () => {
      const values = ['', 'text', 0, -1.5, true, false, null, [], {}, [null, 'a'], { a: { b: [1] } }];
      for (const [i, value] of values.entries()) await store.set(key(`json${i}`), value);
      for (const [i, value] of values.entries()) expect(await store.get(key(`json${i}`))).toEqual(value);
    });

    it('keeps a value until its TTL has passed, then forgets it', async () => {
      await store.set(key('ttl'), 'v', { ttlMs });
      await elapse(justBefore);
      expect(await store.get(key('ttl'))).toBe('v');
      await elapse(pastIt);
      expect(
        await store.get(key('ttl')),
        realClock ? 'expired' : 'expired (a store that ignores `now` must declare realClock: true)',
      ).toBeUndefined();
    });

    it('keeps a value set without a TTL', async () => {
      await store.set(key('forever'), 'v');
      await elapse(realClock ? pastIt : 30 * 24 * 3_600_000);
      expect(await store.get(key('forever'))).toBe('v');
    });

    it('increments a missing key from zero', async () => {
      expect(await store.increment(key('one'))).toBe(1);
      expect(await store.increment(key('five'), 5)).toBe(5);
    });

    it('adds to the current count and keeps it', async () => {
      await store.increment(key('n'));
      expect(await store.increment(key('n'), 5)).toBe(6);
      expect(await store.get(key('n'))).toBe(6);
    });

    it('increments a number written with set', async () => {
      await store.set(key('set-n'), 10);
      expect(await store.increment(key('set-n'), 2)).toBe(12);
    });

    it("applies an increment's TTL when it creates the key, not on later increments", async () => {
      expect(await store.increment(key('window'), 1, { ttlMs })).toBe(1);
      await elapse(justBefore);
      expect(await store.increment(key('window'), 1, { ttlMs: 60_000 })).toBe(2);
      await elapse(pastIt);
      expect(await store.get(key('window'))).toBeUndefined();
      expect(await store.increment(key('window'))).toBe(1);
    });

    it('reads several keys in the order asked, undefined for missing ones', async () => {
      await store.set(key('m1'), 1);
      await store.set(key('m2'), { two: 2 });
      expect(await store.getMany([key('m2'), key('m-missing'), key('m1'), key('m2')])).toEqual([
        { two: 2 },
        undefined,
        1,
        { two: 2 },
      ]);
    });

    it('reads no keys as an empty list', async () => {
      expect(await store.getMany([])).toEqual([]);
    });

    it('deletes a key', async () => {
      await store.set(key('d'), 1);
      await store.delete(key('d'));
      expect(await store.get(key('d'))).toBeUndefined();
      expect(await store.increment(key('d'))).toBe(1);
    });

    it('deletes a missing key without error', async () => {
      await store.delete(key('never-set'));
      expect(await store.get(key('never-set'))).toBeUndefined();
    });

    it('keeps keys with separators, spaces and unicode apart', async () => {
      const odd = ['a', 'a:b', 'a:b:c', ':', 'with space', 'ключ', '🔑/{x}*?[]', 'a\nb'];
      for (const k of odd) await store.set(key(k), `value of ${k}`);
      expect(await store.getMany(odd.map(key))).toEqual(odd.map((k) => `value of ${k}`));
      await store.delete(key('a:b'));
      expect(await store.get(key('a'))).toBe('value of a');
      expect(await store.get(key('a:b:c'))).toBe('value of a:b:c');
    });

    it.runIf(synchronous)('answers every method synchronously, never with a Promise', () => {
      const answers = [
        raw.set(key('sync'), 1),
        raw.get(key('sync')),
        raw.increment(key('sync')),
        raw.getMany([key('sync')]),
        raw.delete(key('sync')),
      ];
      for (const answer of answers) expect(isPromise(answer)).toBe(false);
    });
  });
}

/**
 * The store under test, with each answer checked: a store declared synchronous must never return a
 * Promise (the router relies on it to add no tick to a call).
 */
function answering(
  store: Store,
  synchronous: boolean,
  expect: ReturnType<typeof vitestApi>['expect'],
): Store {
  const check = <T>(method: string, answer: MaybePromise<T>): MaybePromise<T> => {
    if (synchronous) expect(isPromise(answer), `${method} returned a Promise`).toBe(false);
    return answer;
  };
  return {
    get: <T>(k: string) => check('get', store.get<T>(k)),
    set: (k, value, options) => check('set', store.set(k, value, options)),
    increment: (k, by, options) => check('increment', store.increment(k, by, options)),
    getMany: <T>(keys: readonly string[]) => check('getMany', store.getMany<T>(keys)),
    delete: (k) => check('delete', store.delete(k)),
    close: () => check('close', store.close?.()),
  };
}
