import { underLimits } from '../checks/minute-limits.js';
import { selectionPrice } from '../cost/selection-price.js';
import type { Deployment } from '../types/index.js';
import { PerList } from './per-list.js';
import { LowestPicker } from './pick-lowest.js';
import type { RandomSource, RoutingStrategy, SelectionContext } from './strategy.js';

/**
 * `cost-based-routing`: the cheapest healthy deployment under its `rpm`/`tpm` this minute, ties (the
 * same model on several deployments) at random. The price is input plus output dollars per token: the
 * deployment's `input_cost_per_token`/`output_cost_per_token`, else the cost map's, else 1 dollar.
 * When the cheapest fails, cools down or reaches its limits, calls move to the next cheapest.
 *
 * Prices are worked out once per candidate list (a group's list is the same array until the model list
 * changes);
 * minute usage is read and counted by the router (`needsUsage`).
 * @example new Router(list, { routing_strategy: 'cost-based-routing' })
 */
export function costBasedRouting(random: RandomSource): RoutingStrategy {
  const lowest = new LowestPicker(random);
  const prices = new PerList(selectionPrice);
  return {
    name: 'cost-based-routing',
    needsUsage: true,
    select(candidates: readonly Deployment[], context: SelectionContext) {
      const { usage } = context;
      const price = prices.of(candidates);
      if (!usage) return lowest.pick(candidates, (_, i) => price[i]!);
      return lowest.pick(candidates, (d, i) => (underLimits(d, usage[i]) ? price[i]! : Number.NaN));
    },
  };
}
