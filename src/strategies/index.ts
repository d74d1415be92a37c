import { costBasedRouting } from './cost-based-routing.js';
import { latencyArgsOf, latencyBasedRouting } from './latency-based-routing.js';
import { leastBusy } from './least-busy.js';
import { simpleShuffle } from './simple-shuffle.js';
import type { StrategyFactory } from './strategy.js';
import { usageBasedRouting } from './usage-based-routing.js';
import { usageBasedRoutingV2 } from './usage-based-routing-v2.js';

/**
 * The built-in strategies by `routing_strategy` name. A name missing here fails at construction,
 * naming it; each entry is one file of this folder.
 */
export const STRATEGIES: Readonly<Record<string, StrategyFactory>> = Object.freeze({
  'simple-shuffle': (deps) => simpleShuffle(deps.random),
  'least-busy': (deps) => leastBusy(deps),
  'latency-based-routing': (deps, args) => latencyBasedRouting(deps, latencyArgsOf(args)),
  'usage-based-routing': (deps) => usageBasedRouting(deps.random),
  'usage-based-routing-v2': (deps) => usageBasedRoutingV2(deps.random),
  'cost-based-routing': (deps) => costBasedRouting(deps.random),
});
