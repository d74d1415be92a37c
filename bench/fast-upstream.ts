// A minimal OpenAI-format upstream for the overhead and proxy benches, in its own process: it drains each
// request and answers one fixed chat completion, or, when the body asks for `"stream":true`, a short fixed
// SSE stream (role, three content chunks, finish_reason, usage, [DONE]: the shape OpenAI sends with
// `stream_options.include_usage`; bench/lib/openai-answers.ts). Everything is built once, so it costs
// far less CPU per call than what is measured in front of it (the mock provider parses and builds each
// answer). `GET /__cpu` reports its CPU use. Prints its URL, serves until killed.
import { createServer } from 'node:http';
import { CpuMeter } from './lib/cpu-meter.js';
import { CHAT_BODY, CHAT_HEADERS, STREAM_FLAG, STREAM_FRAMES, STREAM_HEADERS } from './lib/openai-answers.js';

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
      res.writeHead(200, CHAT_HEADERS);
      res.end(CHAT_BODY);
      return;
    }
    res.writeHead(200, STREAM_HEADERS);
    // written one frame per write, as a provider sends them, so that readers see several chunks
    for (const frame of STREAM_FRAMES) res.write(frame);
    res.end();
  };
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
