import { PerList } from './per-list.js';
import { LowestPicker } from './pick-lowest.js';
import type { RoutingStrategy, StrategyDeps } from './strategy.js';

/**
 * `least-busy`: the deployment with the fewest calls in flight from this router, ties broken at random
 * (never by list order). In-flight counts are this process's own (a slot is taken when a call is routed
 * and given back when it ends, a stream when it is read to the end), so routers on a shared store each
 * balance their own calls. With the router's live counters (`inFlightCounter`), a pick reads each
 * candidate's count by index, without a lookup.
 * @example new Router(list, { routing_strategy: 'least-busy' })
 */
export function leastBusy(
  deps: Pick<StrategyDeps, 'random' | 'inFlight' | 'inFlightCounter'>,
): RoutingStrategy {
  const lowest = new LowestPicker(deps.random);
  const { inFlight, inFlightCounter } = deps;
  if (!inFlightCounter) {
    const busy = (d: { id: string }) => inFlight(d.id);
    return { name: 'least-busy', select: (candidates) => lowest.pick(candidates, busy) };
  }
  const counters = new PerList((d) => inFlightCounter(d.id));
  return {
    name: 'least-busy',
    select(candidates) {
      const live = counters.of(candidates);
      return lowest.pick(candidates, (_, i) => live[i]!.value);
    },
  };
}
