// A minimal OpenAI-format upstream for the overhead and proxy benches, in its own process: it drains each
// request and answers one fixed chat completion, or, when the body asks for `"stream":true`, a short fixed
// SSE stream (role, three content chunks, finish_reason, usage, [DONE]: the shape OpenAI sends with
// `stream_options.include_usage`). Everything is built once, so it costs far less CPU per call than
// what is measured in front of it (the mock provider parses and builds each answer). `GET /__cpu`
// reports its CPU use. Prints its URL, serves until killed.
import { createServer } from 'node:http';
import { CpuMeter } from './lib/cpu-meter.js';

const body = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-4o',
  system_fingerprint: null,
  choices: [
    {
      index: 0,
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'Hello!', tool_calls: null, function_call: null },
    },
  ],
  usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
  service_tier: null,
});
const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };

const chunk = (choices: unknown[], usage: unknown = null) =>
  Buffer.from(
    `data: ${JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'gpt-4o',
      system_fingerprint: null,
      choices,
      usage,
    })}\n\n`,
  );
const delta = (d: object, finish: string | null = null) => [
  { index: 0, delta: d, logprobs: null, finish_reason: finish },
];
// written one frame per write, as a provider sends them, so that readers see several chunks
const frames = [
  chunk(delta({ role: 'assistant', content: '' })),
  chunk(delta({ content: 'Hel' })),
  chunk(delta({ content: 'lo' })),
  chunk(delta({ content: '!' })),
  chunk(delta({}, 'stop')),
  chunk([], { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 }),
  Buffer.from('data: [DONE]\n\n'),
];
const streamHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const STREAM_FLAG = Buffer.from('"stream":true');

// `--hold-ms N`: every answer waits N ms, so that calls stay in flight (bench/all.ts's memory per call)
const holdAt = process.argv.indexOf('--hold-ms');
const HOLD_MS = holdAt === -1 ? 0 : Number(process.argv[holdAt + 1]);

const meter = new CpuMeter();
const server = createServer((req, res) => {
  if (meter.answer(req, res)) return;
  meter.requests++;
  const parts: Buffer[] = [];
  req.on('data', (part: Buffer) => parts.push(part));
  req.on('end', () => (HOLD_MS > 0 ? setTimeout(answer, HOLD_MS) : answer()));
  const answer = () => {
    const stream = parts.length > 0 && Buffer.concat(parts).includes(STREAM_FLAG);
    if (!stream) {
      res.writeHead(200, headers);
      res.end(body);
      return;
    }
    res.writeHead(200, streamHeaders);
    for (const frame of frames) res.write(frame);
    res.end();
  };
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
