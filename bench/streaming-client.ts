// One measured client of bench/streaming.ts, in its own process: time to the first token of a stream,
// either directly (undici, the provider's own request, until the body bytes hold the first content:
// `FIRST_TOKEN`) or through router.acompletion (its first chat.completion.chunk, which comes with the
// first content: a role-only opener is held back until then). One call at a time, so the difference is
// the router's own time. Until the ninth pass of #27 the direct client stopped at its first body bytes,
// which hold only the role-only opener when the provider sends it on its own, and so charged the router
// with the wait for the next frame.
import { Router } from '@svc/router';
import { Pool } from 'undici';
import { quantile } from './lib/stats.js';
import { WARMUP_CALLS } from './lib/warm-up.js';

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
/**
 * What in a format's body bytes says the first token has come: a content delta with text (OpenAI's
 * role-only opener has `"content":""`), Anthropic's first `content_block_delta`, Gemini's first part
 * text, Bedrock's first `contentBlockDelta` event.
 */
const FIRST_TOKEN: Record<string, RegExp> = {
  openai: /"content":"[^"]/,
  anthropic: /content_block_delta/,
  gemini: /"text":/,
  bedrock: /contentBlockDelta/,
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
  const firstToken = FIRST_TOKEN[format]!;
  const body = JSON.stringify(spec.body);
  firstChunk = async () => {
    const t0 = performance.now();
    const res = await pool.request({
      path: spec.path,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...spec.headers },
      body,
    });
    let elapsed = 0;
    let tail = ''; // the end of the bytes before, for a marker cut across two reads
    for await (const bytes of res.body) {
      if (elapsed !== 0) continue; // drained so the connection is reused
      const text = tail + (bytes as Buffer).toString('latin1');
      if (firstToken.test(text)) elapsed = performance.now() - t0;
      else tail = text.slice(-64);
    }
    if (elapsed === 0) throw new Error('no token in the stream');
    return elapsed;
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

for (let i = 0; i < WARMUP_CALLS; i++) await firstChunk(); // lib/warm-up.ts says why this many
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
