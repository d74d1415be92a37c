import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/stores/memory-store.js';
import { cool, endpoint, GROUP, NOW, tracker } from '../router/layers/fixtures.js';

describe('re-cooling a deployment', () => {
  it('keeps the later deadline when another router cooled it for longer', () => {
    const store = new MemoryStore();
    const long = endpoint('a', { cooldownMs: 60_000 });
    const short = endpoint('a', { cooldownMs: 5_000 });
    const one = tracker(store);
    const two = tracker(store);
    cool(one, long, NOW);
    two.refresh({ name: GROUP, ids: ['a'] });
    cool(two, short, NOW + 1_000); // a 5 s cooldown must not cut one's 60 s short
    const three = tracker(store);
    three.refresh({ name: GROUP, ids: ['a'] });
    expect(three.stateOf('a', NOW + 30_000)).toMatchObject({ state: 'cooling', until: NOW + 60_000 });
    for (const view of [one, two, three]) {
      expect(view.isAvailable('a', NOW + 30_000)).toBe(false);
      expect(view.isAvailable('a', NOW + 60_000)).toBe(true);
    }
  });

  it('extends a cooldown to the later deadline when the new one ends later', () => {
    const store = new MemoryStore();
    const one = tracker(store);
    const two = tracker(store);
    cool(one, endpoint('a', { cooldownMs: 5_000 }), NOW);
    two.refresh({ name: GROUP, ids: ['a'] });
    cool(two, endpoint('a', { cooldownMs: 60_000 }), NOW + 1_000);
    const three = tracker(store);
    three.refresh({ name: GROUP, ids: ['a'] });
    expect(three.stateOf('a', NOW + 30_000)).toMatchObject({ state: 'cooling', until: NOW + 61_000 });
  });

  it('cools a half-open deployment whose trial failed until a fresh deadline', () => {
    const view = tracker();
    const a = endpoint('a', { cooldownMs: 5_000 });
    cool(view, a, NOW);
    expect(view.tryPick('a', NOW + 5_000)).toBe(true); // the half-open trial
    cool(view, a, NOW + 5_100);
    expect(view.stateOf('a', NOW + 9_000)).toMatchObject({ state: 'cooling', until: NOW + 10_100 });
  });
});
