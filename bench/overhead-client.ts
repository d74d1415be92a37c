// One measured client of bench/overhead.ts, in its own process: `direct` (undici to the upstream) or
// `router` (router.acompletion to the same upstream). Prints one JSON line of results.
// The router is the built package (dist/), as users run it.

import { Router } from '@svc/router';
import { Pool } from 'undici';
import { load, quantile } from './lib/stats.js';

const [mode, url, countArg, concurrencyArg] = process.argv.slice(2);
const count = Number(countArg);
const concurrency = Number(concurrencyArg);
const messages = [{ role: 'user' as const, content: 'Say hello.' }];

let task: () => Promise<unknown>;
let close: () => Promise<void>;
if (mode === 'direct') {
  const pool = new Pool(url!);
  task = async () => {
    const res = await pool.request({
      path: '/v1/chat/completions',
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-key' },
      body: JSON.stringify({ model: 'gpt-4o', messages }),
    });
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
    return res.body.json();
  };
  close = () => pool.close();
} else {
  const router = new Router([
    {
      model_name: 'gpt-4o',
      svc_params: { model: 'openai/gpt-4o', api_base: `${url}/v1`, api_key: 'sk-bench-key' },
    },
  ]);
  task = () => router.acompletion({ model: 'gpt-4o', messages });
  close = () => router.close();
}

await load(Math.min(2000, count), concurrency, task); // warm-up: JIT and connections
const { latenciesUs, seconds, cpuUsPerCall } = await load(count, concurrency, task);
await close();
process.stdout.write(
  `${JSON.stringify({
    mode,
    rps: count / seconds,
    p50: quantile(latenciesUs, 0.5),
    p99: quantile(latenciesUs, 0.99),
    cpuUsPerCall,
  })}\n`,
);
