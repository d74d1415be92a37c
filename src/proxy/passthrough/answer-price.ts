import { LRUCache } from 'lru-cache';
import { catalogFacts } from '../../cost/model-facts.js';
import { usageCost } from '../../cost/response-cost.js';
import type { TokenPrices } from '../../cost/token-prices.js';
import type { Usage } from '../../types/index.js';
import type { PassThroughProvider } from './settings.js';

/**
 * The catalog's prices of the models pass-through answers name, looked up once per model and kept
 * (a few hundred models at most).
 */
export class AnswerPrices {
  readonly #prices = new LRUCache<string, { prices: TokenPrices | undefined }>({ max: 512 });

  /** The cost of `usage` on `model` of `provider`, and whether a price was known. */
  cost(provider: PassThroughProvider, model: string, usage: Usage): { cost: number; priced: boolean } {
    const key = `${provider}/${model}`;
    let entry = this.#prices.get(key);
    if (entry === undefined) {
      entry = { prices: catalogFacts({ provider, model }).prices };
      this.#prices.set(key, entry);
    }
    return { cost: usageCost(entry.prices, usage), priced: entry.prices !== undefined };
  }
}
