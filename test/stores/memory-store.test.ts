import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/index.js';
import { storeContract } from './store-contract.js';

storeContract('MemoryStore', () => new MemoryStore());

describe('MemoryStore', () => {
  it('keeps at most maxKeys, dropping the least recently used', async () => {
    const store = new MemoryStore({ maxKeys: 2 });
    await store.set('a', 1);
    await store.set('b', 2);
    await store.get('a');
    await store.set('c', 3);
    expect(await store.getMany(['a', 'b', 'c'])).toEqual([1, undefined, 3]);
  });
});
