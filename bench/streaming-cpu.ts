// bench/streaming-cpu.ts (npx tsx bench/streaming-cpu.ts): client CPU per streamed answer at concurrency
// (BENCH_CONCURRENCY, default 20), through router.acompletion and through a direct undici request, against
// bench/fast-upstream.ts (a seven-frame OpenAI stream) in its own process. At concurrency the event loop's
// fixed cost per wake-up is shared, so the difference is the router's own work per stream.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Router } from '@svc/router';
import { Pool } from 'undici';
import { firstLine, spawnScript } from './lib/child.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true });

if (process.argv[2] === 'client') {
  const [, , , mode, url] = process.argv;
  let one: () => Promise<void>;
  let close: () => Promise<void>;
  if (mode === 'direct') {
    const pool = new Pool(url!, { connections: CONCURRENCY });
    one = async () => {
      const res = await pool.request({
        path: '/v1/chat/completions',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
        body,
      });
      for await (const _ of res.body);
    };
    close = () => pool.close();
  } else {
    const router = new Router([
      { model_name: 'm', svc_params: { model: 'openai/gpt-4o', api_base: `${url}/v1`, api_key: 'sk-bench' } },
    ]);
    const messages = [{ role: 'user' as const, content: 'hi' }];
    one = async () => {
      for await (const _ of await router.acompletion({ model: 'm', messages, stream: true }));
    };
    close = () => router.close();
  }
  const run = async (n: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < n) await one();
      }),
    );
  };
  await run(2_000); // warm-up
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await run(COUNT);
  const seconds = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu);
  await close();
  process.stdout.write(
    `${JSON.stringify({ cpuUs: (used.user + used.system) / COUNT, rps: COUNT / seconds })}\n`,
  );
  process.exit(0);
}

const upstream = spawnScript('fast-upstream.ts', []);
const url = await firstLine(upstream);
const self = fileURLToPath(import.meta.url);
const results: Record<string, { cpuUs: number; rps: number }[]> = { direct: [], router: [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? ['direct', 'router'] : ['router', 'direct']) {
      const child = spawn(process.execPath, ['--import', 'tsx', self, 'client', mode, url], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: process.env,
      });
      results[mode]!.push(JSON.parse(await firstLine(child)));
    }
  }
} finally {
  upstream.kill('SIGTERM');
}
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpu = (mode: string) => median(results[mode]!.map((r) => r.cpuUs));
const rps = (mode: string) => median(results[mode]!.map((r) => r.rps));
console.log(`streamed answers, concurrency ${CONCURRENCY}, ${COUNT} calls x ${ROUNDS} rounds (medians)`);
console.log('| client | streams/s | client CPU/stream (µs) |');
console.log('|---|---:|---:|');
for (const mode of ['direct', 'router'])
  console.log(`| ${mode} | ${rps(mode).toFixed(0)} | ${cpu(mode).toFixed(1)} |`);
console.log(`router CPU added per stream (µs): ${(cpu('router') - cpu('direct')).toFixed(1)}`);
console.log(`ratio (router streams/s / direct): ${(rps('router') / rps('direct')).toFixed(3)}`);
