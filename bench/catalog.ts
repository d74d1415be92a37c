// bench/catalog.ts (npm run bench:catalog): what the model catalog costs, and where.
//   load     - the first Router's construction: loading the catalogs (genai-prices' data, the
//              models.dev files of the providers in use) and resolving each deployment once;
//   rebuild  - a later construction of the same list (the catalog memo answers);
//   per call - what a call pays for its cost: `usageCost` on the prices its deployment resolved at
//              construction, against what a catalog lookup per call would cost (the memo's answer, and
//              a lookup that misses it).
// Times are CPU time of this process (user + system), so other processes on a busy machine do not
// count. BENCH_N sets the calls measured per row.
import { cpuUsage } from 'node:process';
import { genaiEntry } from '../src/cost/genai-prices-catalog.js';
import { catalogFacts } from '../src/cost/model-facts.js';
import { usageCost } from '../src/cost/response-cost.js';
import { Router } from '../src/index.js';

const N = Number(process.env.BENCH_N ?? 200_000);
const cpuMs = (from: NodeJS.CpuUsage) => {
  const d = cpuUsage(from);
  return (d.user + d.system) / 1000;
};

const MODELS = [
  'openai/gpt-4o',
  'openai/gpt-5',
  'azure/gpt-4o-mini',
  'anthropic/claude-sonnet-4-5',
  'gemini/gemini-2.5-pro',
  'vertex_ai/gemini-2.5-flash',
  'bedrock/us.anthropic.claude-3-7-sonnet-20250219-v1:0',
  'deepseek/deepseek-chat',
  'xai/grok-4',
  'openrouter/anthropic/claude-3.7-sonnet',
];
const list = MODELS.map((model, i) => ({
  model_name: `m${i}`,
  svc_params: {
    model,
    api_key: 'sk-bench-00000000',
    api_base: `http://127.0.0.1:9/${i}`,
    vertex_project: 'bench',
    vertex_location: 'us-central1',
    aws_region_name: 'us-east-1',
    aws_access_key_id: 'AKIABENCH0000000000',
    aws_secret_access_key: 'bench-secret-0000000000000000',
  },
}));

let start = cpuUsage();
const first = new Router(list);
const load = cpuMs(start);
start = cpuUsage();
const second = new Router(list);
const rebuild = cpuMs(start);
await Promise.all([first.close(), second.close()]);

const prices = catalogFacts({ provider: 'anthropic', model: 'claude-sonnet-4-5' }).prices;
const usage = {
  prompt_tokens: 12_000,
  completion_tokens: 800,
  total_tokens: 12_800,
  prompt_tokens_details: { cached_tokens: 9000, cache_creation_tokens: 1000 },
};
const perCall = (run: (i: number) => unknown, n = N) => {
  let sink = 0;
  const t = cpuUsage();
  for (let i = 0; i < n; i++) sink += run(i) ? 1 : 0;
  if (sink < 0) console.log(sink);
  return (cpuMs(t) * 1e6) / n; // ns
};
const resolved = perCall(() => usageCost(prices, usage));
const memo = perCall(() => catalogFacts({ provider: 'anthropic', model: 'claude-sonnet-4-5' }));
const miss = perCall(
  (i) => genaiEntry({ provider: 'openai', model: `gpt-4o-2024-08-${i % 30}` }, new Date()),
  2000,
);

console.log(`catalog cost, ${MODELS.length} deployments (CPU time)`);
console.log(`  load: first Router construction      ${load.toFixed(1)} ms`);
console.log(`  rebuild: same list again              ${rebuild.toFixed(1)} ms`);
console.log(`  per call: usageCost on resolved prices ${resolved.toFixed(0)} ns`);
console.log(`  (a lookup per call: memo hit           ${memo.toFixed(0)} ns;`);
console.log(`   miss, genai-prices matching           ${(miss / 1000).toFixed(1)} µs)`);
