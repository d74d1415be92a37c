import { LowestPicker } from './pick-lowest.js';
import type { RoutingStrategy, StrategyDeps } from './strategy.js';

/**
 * `least-busy`: the deployment with the fewest calls in flight from this router, ties broken at random
 * (never by list order). In-flight counts are this process's own (a slot is taken when a call is routed
 * and given back when it ends, a stream when it is read to the end), so routers on a shared store each
 * balance their own calls.
 * @example new Router(list, { routing_strategy: 'least-busy' })
 */
export function leastBusy(deps: Pick<StrategyDeps, 'random' | 'inFlight'>): RoutingStrategy {
  const lowest = new LowestPicker(deps.random);
  const busy = (d: { id: string }) => deps.inFlight(d.id);
  return {
    name: 'least-busy',
    select: (candidates) => lowest.pick(candidates, busy),
  };
}
