// The gateway soak's upstream, in its own process: OpenAI's wire format, where every other call of each
// kind (plain, streamed) fails, by a counter and never at random. A kind's calls go, eight at a time:
// success, 500, success, 429, success, connection reset (the socket destroyed before any answer),
// success, cut (a plain body cut half-way, a stream cut after three of its seven frames, the socket
// destroyed). Successes are bench/lib/openai-answers.ts's fixed answers. `GET /__stats` tells what it
// answered, by kind and outcome. Prints its URL, serves until killed.
import { createServer, type ServerResponse } from 'node:http';
import {
  CHAT_BODY,
  CHAT_HEADERS,
  STREAM_FLAG,
  STREAM_FRAMES,
  STREAM_HEADERS,
} from '../lib/openai-answers.js';

const FAILURES = ['500', '429', 'reset', 'cut'] as const;
type Outcome = 'ok' | (typeof FAILURES)[number];
type Kind = 'plain' | 'stream';

const counters: Record<Kind, number> = { plain: 0, stream: 0 };
const answered: Record<Kind, Record<Outcome, number>> = {
  plain: { ok: 0, '500': 0, '429': 0, reset: 0, cut: 0 },
  stream: { ok: 0, '500': 0, '429': 0, reset: 0, cut: 0 },
};

/** The n-th call of a kind (from 0): odd ones fail, through the four failures in turn. */
function outcomeOf(n: number): Outcome {
  return n % 2 === 0 ? 'ok' : FAILURES[(n >> 1) % FAILURES.length]!;
}

const errorBody = (status: number, message: string, type: string) =>
  JSON.stringify({ error: { message, type, param: null, code: null }, status });

function answer(res: ServerResponse, kind: Kind, outcome: Outcome): void {
  switch (outcome) {
    case 'ok':
      if (kind === 'plain') res.writeHead(200, CHAT_HEADERS).end(CHAT_BODY);
      else {
        res.writeHead(200, STREAM_HEADERS);
        for (const frame of STREAM_FRAMES) res.write(frame);
        res.end();
      }
      return;
    case '500':
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(errorBody(500, 'The server had an error while processing your request.', 'server_error'));
      return;
    case '429':
      // no retry-after: the soak measures failures reaching the client, not the gateway waiting
      res
        .writeHead(429, { 'content-type': 'application/json' })
        .end(errorBody(429, 'Rate limit reached for requests.', 'requests'));
      return;
    case 'reset':
      res.socket?.destroy();
      return;
    case 'cut':
      if (kind === 'plain') {
        res.writeHead(200, CHAT_HEADERS);
        res.write(CHAT_BODY.slice(0, CHAT_BODY.length >> 1));
      } else {
        res.writeHead(200, STREAM_HEADERS);
        for (const frame of STREAM_FRAMES.slice(0, 3)) res.write(frame);
      }
      // after the written bytes are flushed, so that the reader sees a cut answer and not a reset
      setImmediate(() => res.socket?.destroy());
      return;
  }
}

const server = createServer((req, res) => {
  if (req.url === '/__stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answered));
    return;
  }
  const parts: Buffer[] = [];
  req.on('data', (part: Buffer) => parts.push(part));
  req.on('end', () => {
    const kind: Kind = Buffer.concat(parts).includes(STREAM_FLAG) ? 'stream' : 'plain';
    const outcome = outcomeOf(counters[kind]++);
    answered[kind][outcome]++;
    answer(res, kind, outcome);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
