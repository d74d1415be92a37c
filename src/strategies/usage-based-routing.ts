import type { RandomSource, RoutingStrategy } from './strategy.js';
import { lowestUsage } from './usage-based-routing-v2.js';

/**
 * `usage-based-routing`: the same rule as `usage-based-routing-v2` (fewest tokens this minute among the
 * deployments under their `rpm`/`tpm`), on the same shared counters. The name is kept for configs
 * written for LiteLLM, whose older implementation rewrote one shared record per group and lost counts
 * when routers wrote at once; here both names count with atomic increments.
 * @example new Router(list, { routing_strategy: 'usage-based-routing' })
 */
export function usageBasedRouting(random: RandomSource): RoutingStrategy {
  return lowestUsage('usage-based-routing', random);
}
