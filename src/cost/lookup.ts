import { LRUCache } from 'lru-cache';
import { MODEL_PRICES, type ModelPrice } from './model-prices.js';

const CANDIDATE_REWRITES: ReadonlyArray<(name: string) => string> = [
  (n) => n.replace(/^[a-z_]+\//, ''), // a provider prefix: `openai/gpt-4o`
  (n) => n.replace(/^.*\//, ''), // OpenRouter vendor paths: `anthropic/claude-sonnet-4-5`
  (n) => n.replace(/^(us|eu|apac|global)\./, ''), // Bedrock cross-region inference profiles
  (n) => n.replace(/^(anthropic|meta|mistral|amazon|cohere|ai21)\.(?!nova|titan)/, ''), // Bedrock vendors
  (n) => n.replace(/-v\d+(:\d+)?$/, ''), // Bedrock versions: `-v1:0`
  (n) => n.replace(/@.*$/, ''), // Vertex versions: `claude-3-5-sonnet@20240620`
  (n) => n.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, ''), // dated snapshots
  (n) => n.replace(/-(latest|preview|exp)(-[\w-]+)?$/, ''),
  (n) => n.replace(/-\d{3}$/, ''), // `gemini-1.5-pro-002`
];

// model names come from users (pass-through models too): the memo of lookups is bounded
const cache = new LRUCache<string, { price: ModelPrice | undefined }>({ max: 2048 });

/**
 * The cost-map entry of a model name, tolerating provider prefixes, Bedrock and Vertex version
 * suffixes and dated snapshots. Undefined when unknown.
 */
export function lookupModelPrice(model: string): ModelPrice | undefined {
  const cached = cache.get(model);
  if (cached) return cached.price;
  let name = model.toLowerCase();
  let found = MODEL_PRICES[name];
  for (const rewrite of CANDIDATE_REWRITES) {
    if (found) break;
    name = rewrite(name);
    found = MODEL_PRICES[name];
  }
  cache.set(model, { price: found });
  return found;
}
