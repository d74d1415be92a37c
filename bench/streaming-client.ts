// One measured client of bench/streaming.ts, in its own process: time to the first chunk of a stream,
// either directly (undici, the provider's own request, first body bytes) or through router.acompletion
// (first chat.completion.chunk). One call at a time, so the difference is the router's own time.
import { Router } from '@svc/router';
import { Pool } from 'undici';
import { quantile } from './lib/stats.js';

const [format, mode, url, countArg] = process.argv.slice(2) as [string, string, string, string];
const count = Number(countArg);
const text = 'Say hello.';

interface Direct {
  path: string;
  headers: Record<string, string>;
  body: object;
}
const DIRECT: Record<string, Direct> = {
  openai: {
    path: '/v1/chat/completions',
    headers: { authorization: 'Bearer sk-bench' },
    body: { model: 'gpt-4o', messages: [{ role: 'user', content: text }], stream: true },
  },
  anthropic: {
    path: '/v1/messages',
    headers: { 'x-api-key': 'sk-bench', 'anthropic-version': '2023-06-01' },
    body: {
      model: 'claude-sonnet-4-5',
      max_tokens: 256,
      messages: [{ role: 'user', content: text }],
      stream: true,
    },
  },
  gemini: {
    path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    headers: { 'x-goog-api-key': 'sk-bench' },
    body: { contents: [{ role: 'user', parts: [{ text }] }] },
  },
  bedrock: {
    path: `/model/${encodeURIComponent('anthropic.claude-3-haiku-20240307-v1:0')}/converse-stream`,
    headers: { authorization: 'Bearer sk-bench' },
    body: { messages: [{ role: 'user', content: [{ text }] }] },
  },
};
const MODELS: Record<string, string> = {
  openai: 'openai/gpt-4o',
  anthropic: 'anthropic/claude-sonnet-4-5',
  gemini: 'gemini/gemini-2.5-flash',
  bedrock: 'bedrock/anthropic.claude-3-haiku-20240307-v1:0',
};

let firstChunk: () => Promise<number>;
let close: () => Promise<void>;
if (mode === 'direct') {
  const pool = new Pool(url);
  const spec = DIRECT[format]!;
  const body = JSON.stringify(spec.body);
  firstChunk = async () => {
    const t0 = performance.now();
    const res = await pool.request({
      path: spec.path,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...spec.headers },
      body,
    });
    for await (const _ of res.body) {
      const elapsed = performance.now() - t0;
      for await (const _rest of res.body) {
        // drain so the connection is reused
      }
      return elapsed;
    }
    throw new Error('empty stream');
  };
  close = () => pool.close();
} else {
  const router = new Router([
    {
      model_name: 'm',
      svc_params: {
        model: MODELS[format]!,
        api_base: format === 'openai' ? `${url}/v1` : url,
        api_key: 'sk-bench',
        aws_region_name: 'us-east-1',
      },
    },
  ]);
  const messages = [{ role: 'user' as const, content: text }];
  firstChunk = async () => {
    const t0 = performance.now();
    const stream = await router.acompletion({ model: 'm', messages, stream: true });
    let elapsed = 0;
    for await (const _ of stream) {
      if (elapsed === 0) elapsed = performance.now() - t0;
    }
    return elapsed;
  };
  close = () => router.close();
}

for (let i = 0; i < Math.min(300, count); i++) await firstChunk(); // warm-up
const samples = new Float64Array(count);
// the whole stream is read in both modes, so CPU per call is the client's cost of a streamed answer
const cpu = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < count; i++) samples[i] = (await firstChunk()) * 1000;
const wallMs = performance.now() - t0;
const used = process.cpuUsage(cpu);
samples.sort();
await close();
const cpuUs = (used.user + used.system) / count;
const rps = count / (wallMs / 1000);
process.stdout.write(
  `${JSON.stringify({ p50: quantile(samples, 0.5), p99: quantile(samples, 0.99), cpuUs, rps })}\n`,
);
