import { simpleShuffle } from './simple-shuffle.js';
import type { StrategyFactory } from './strategy.js';

/**
 * The built-in strategies by `routing_strategy` name. A name missing here fails at construction,
 * naming it; each entry is one file of this folder.
 */
export const STRATEGIES: Readonly<Record<string, StrategyFactory>> = Object.freeze({
  'simple-shuffle': (deps) => simpleShuffle(deps.random),
});
