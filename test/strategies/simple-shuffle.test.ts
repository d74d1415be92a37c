import { describe, expect, it } from 'vitest';
import { simpleShuffle } from '../../src/strategies/simple-shuffle.js';
import { weightedPick } from '../../src/strategies/weighted-pick.js';
import { seededRandom, strategyContract } from '../../src/testing/index.js';
import { choose, group, tally } from './helpers.js';

strategyContract({ name: 'simple-shuffle', create: ({ random }) => simpleShuffle(random) });

describe('simple-shuffle', () => {
  const candidates = group({ a: { weight: 3 }, b: { weight: 0 }, c: { weight: 1 } });

  it('splits picks by weight, and never picks a weight of 0 while another weight is set', () => {
    const counts = tally(simpleShuffle(seededRandom(1)), candidates, 800);
    // expected 600/0/200; bounds about 4.7 standard deviations
    expect(counts.a).toBeGreaterThan(540);
    expect(counts.c).toBeGreaterThan(140);
    expect(counts.b).toBeUndefined();
  });

  it('picks the same as a fresh pick over the same weights, on a list it has seen before', () => {
    const cached = simpleShuffle(seededRandom(2));
    const fresh = seededRandom(2);
    const seen = candidates.slice();
    for (let i = 0; i < 200; i++) {
      expect(choose(cached, seen)).toBe(weightedPick(candidates.slice(), fresh)?.id);
    }
  });

  it('picks uniformly when every weight is 0', () => {
    const zero = group({ a: { weight: 0 }, b: { weight: 0 } });
    const counts = tally(simpleShuffle(seededRandom(3)), zero, 600);
    expect(counts.a).toBeGreaterThan(240);
    expect(counts.b).toBeGreaterThan(240);
  });
});
