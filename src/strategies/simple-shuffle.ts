import type { Deployment } from '../types/index.js';
import type { RandomSource, RoutingStrategy } from './strategy.js';
import { cumulativeWeights, pickByTotals } from './weighted-pick.js';

/**
 * The default strategy: a random choice weighted by `weight`, else `rpm`, else `tpm`, else uniform.
 * The weights' running totals are kept per candidate list: when nothing is filtered out the router
 * passes the group's own (unchanging) list, so a pick is a binary search, O(log n).
 * @example new Router(list, { routing_strategy: 'simple-shuffle' })
 */
export function simpleShuffle(random: RandomSource = Math.random): RoutingStrategy {
  const totalsOf = new WeakMap<readonly Deployment[], Float64Array>();
  return {
    name: 'simple-shuffle',
    select(candidates) {
      if (candidates.length <= 1) return candidates[0];
      let totals = totalsOf.get(candidates);
      if (!totals) {
        totals = cumulativeWeights(candidates);
        totalsOf.set(candidates, totals);
      }
      return pickByTotals(candidates, totals, random);
    },
  };
}
