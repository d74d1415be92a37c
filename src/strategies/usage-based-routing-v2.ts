import { underLimits } from '../checks/minute-limits.js';
import type { Deployment } from '../types/index.js';
import { LowestPicker } from './pick-lowest.js';
import type { RandomSource, RoutingStrategy, SelectionContext } from './strategy.js';

/**
 * The lowest-usage choice both usage strategies make: among the candidates under their `rpm` and `tpm`
 * this minute, the one that used the fewest tokens (ties at random). With no usage known (the store
 * could not be read, or the strategy runs outside a router) every candidate counts as unused. Pure
 * given `random`.
 */
export function lowestUsage(name: string, random: RandomSource): RoutingStrategy {
  const lowest = new LowestPicker(random);
  return {
    name,
    needsUsage: true,
    select(candidates: readonly Deployment[], context: SelectionContext) {
      const { usage } = context;
      if (!usage) return lowest.pick(candidates, () => 0);
      return lowest.pick(candidates, (d, i) => {
        const u = usage[i];
        return underLimits(d, u) ? (u?.tpm ?? 0) : Number.NaN;
      });
    },
  };
}

/**
 * `usage-based-routing-v2`: each deployment's requests and tokens of the current wall-clock minute are
 * counted in the store (shared by every router on it); deployments at or over their `rpm`/`tpm` are
 * left out, and the one with the fewest tokens this minute wins, ties at random.
 *
 * The router does the I/O for it (`needsUsage`): one `getMany` of all candidates' counters before each
 * selection, one increment when a request is sent (counted as it is sent, so a burst cannot overshoot
 * `rpm` within one router) and one when its usage is known. Neither write is waited for.
 * @example new Router(list, { routing_strategy: 'usage-based-routing-v2' })
 */
export function usageBasedRoutingV2(random: RandomSource): RoutingStrategy {
  return lowestUsage('usage-based-routing-v2', random);
}
