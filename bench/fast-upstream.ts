// A minimal OpenAI-format upstream for the overhead and proxy benches, in its own process: it drains each
// request and answers one fixed chat completion, or, when the body asks for `"stream":true`, a short fixed
// SSE stream (role, three content chunks, finish_reason, usage, [DONE]: the shape OpenAI sends with
// `stream_options.include_usage`; bench/lib/openai-answers.ts; `--content-chunks N` for N of them).
// Everything is built once, so it costs far less CPU per call than what is measured in front of it (the
// mock provider parses and builds each answer). `GET /__cpu` reports its CPU use. Prints its URL,
// serves until killed.
import { createServer } from 'node:http';
import { CpuMeter } from './lib/cpu-meter.js';
import { CHAT_BODY, CHAT_HEADERS, STREAM_FLAG, STREAM_HEADERS, streamFrames } from './lib/openai-answers.js';

// `--hold-ms N`: calls stay in flight N ms (bench/all.ts's memory per call): a plain answer waits that
// long; a stream sends its headers and first two frames (the role and the first content) at once and
// the rest after the wait, so that a streamed call is held where a stream spends its life: being read
const holdAt = process.argv.indexOf('--hold-ms');
const HOLD_MS = holdAt === -1 ? 0 : Number(process.argv[holdAt + 1]);
// `--content-chunks N`: streams of N content chunks (default 3; bench/all.ts's long streams: 100)
const contentsAt = process.argv.indexOf('--content-chunks');
const CONTENTS = contentsAt === -1 ? 3 : Number(process.argv[contentsAt + 1]);
if (!Number.isInteger(CONTENTS) || CONTENTS < 1)
  throw new Error(
    `--content-chunks takes a whole number of chunks (1 or more), not ${process.argv[contentsAt + 1]}`,
  );
const STREAM_FRAMES = streamFrames(CONTENTS);

const meter = new CpuMeter();
const server = createServer((req, res) => {
  if (meter.answer(req, res)) return;
  meter.requests++;
  const parts: Buffer[] = [];
  req.on('data', (part: Buffer) => parts.push(part));
  req.on('end', () => {
    const stream = parts.length > 0 && Buffer.concat(parts).includes(STREAM_FLAG);
    if (!stream) {
      if (HOLD_MS > 0) setTimeout(answerPlain, HOLD_MS);
      else answerPlain();
      return;
    }
    res.writeHead(200, STREAM_HEADERS);
    // written one frame per write, as a provider sends them, so that readers see several chunks
    if (HOLD_MS === 0) writeFrames(0);
    else {
      writeFrames(0, 2);
      setTimeout(writeFrames, HOLD_MS, 2);
    }
  });
  const answerPlain = () => {
    res.writeHead(200, CHAT_HEADERS);
    res.end(CHAT_BODY);
  };
  const writeFrames = (from: number, to = STREAM_FRAMES.length) => {
    for (let i = from; i < to; i++) res.write(STREAM_FRAMES[i]);
    if (to === STREAM_FRAMES.length) res.end();
  };
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
