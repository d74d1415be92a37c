import type { RandomSource, RoutingStrategy } from './strategy.js';
import { weightedPick } from './weighted-pick.js';

/**
 * The default strategy: a random choice weighted by `weight`, else `rpm`, else `tpm`, else uniform.
 * @example new Router(list, { routing_strategy: 'simple-shuffle' })
 */
export function simpleShuffle(random: RandomSource = Math.random): RoutingStrategy {
  return {
    name: 'simple-shuffle',
    select: (candidates) => weightedPick(candidates, random),
  };
}
