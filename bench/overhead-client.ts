// One measured client of bench/overhead.ts, in its own process: `direct` (undici's request() to the
// upstream), `floor` (undici's dispatch() with a handler that only collects the body: the least any
// client can do) or `router` (router.acompletion to the same upstream). Prints one JSON line of results.
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
} else if (mode === 'floor') {
  const pool = new Pool(url!);
  const headers = { 'content-type': 'application/json', authorization: 'Bearer sk-bench-key' };
  task = () =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let status = 0;
      pool.dispatch(
        {
          path: '/v1/chat/completions',
          method: 'POST',
          headers,
          body: JSON.stringify({ model: 'gpt-4o', messages }),
        },
        {
          // undici takes a handler as the new API's only when it has onRequestStart
          onRequestStart: () => {},
          onResponseStart: (_controller, statusCode) => {
            status = statusCode;
          },
          onResponseData: (_controller, chunk) => {
            chunks.push(chunk);
          },
          onResponseEnd: () => {
            if (status !== 200) reject(new Error(`status ${status}`));
            else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          },
          onResponseError: (_controller, error) => reject(error),
        },
      );
    });
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
