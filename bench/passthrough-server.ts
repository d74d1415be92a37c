// The pass-through baseline of bench/proxy.ts, in its own process: node:http in front of an undici Pool
// to the upstream, forwarding each request's body and writing the answer back, with no auth, no parsing
// and no logging: the floor any gateway pays for the extra hop. `GET /__cpu` reports its CPU use, and
// `/__profile/start` and `/stop` take a profile of it (lib/profiler.ts).
// It runs with the V8 flags the gateway sets (tuneV8ForGateway): with V8's defaults its CPU per call
// settled at start-up at one of two levels (about 50 or 77 µs a plain call on Node 24, 60 or 97 on
// Node 20; one start in two at the lower one in #27's tenth pass), and a ratio to it moved with them;
// with the flags it stays at the lower one (docs/benchmarks.md, "Warm-up and the baseline's V8 flags").
// The answer goes through undici's `stream()`, which writes the body into the response as it comes,
// with no readable in between. Until #27's twenty-seventh pass it went through `request()` and
// `stream.pipeline()`, which makes an AbortController per call and aborts it when the pipe ends:
// Node builds a DOMException, its stack trace included, each time, and a pass-through call cost 30 to
// 90 µs more of CPU (1.3 to 1.9 times the bare figure), which every gateway ratio was measured against
// ("A baseline that paid for pipeline()", docs/benchmarks.md).
// Usage: passthrough-server.ts <upstream URL>; prints its URL, serves until killed.
import {
  createServer,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { type Dispatcher, Pool } from 'undici';
import { tuneV8ForGateway } from '../proxy/src/v8-tuning.js';
import { CpuMeter } from './lib/cpu-meter.js';
import { Profiler } from './lib/profiler.js';

tuneV8ForGateway();

const [upstreamUrl] = process.argv.slice(2);
if (!upstreamUrl) throw new Error('usage: passthrough-server.ts <upstream URL>');
const pool = new Pool(upstreamUrl);
// the headers a gateway carries over each way; hop-by-hop ones (connection, transfer-encoding) are not
const REQUEST_HEADERS = ['content-type', 'content-length', 'authorization'] as const;
const RESPONSE_HEADERS = ['content-type', 'content-length', 'cache-control'] as const;

function pick(from: IncomingHttpHeaders, names: readonly string[]): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const name of names) if (from[name] !== undefined) out[name] = from[name];
  return out;
}

// one factory for every call, the response as its `opaque`: no closure per call
const answerInto: Dispatcher.StreamFactory<ServerResponse> = ({ statusCode, headers, opaque }) => {
  opaque.writeHead(statusCode, pick(headers as IncomingHttpHeaders, RESPONSE_HEADERS));
  return opaque;
};

const meter = new CpuMeter();
const profiler = new Profiler();
const server = createServer((req, res) => {
  if (meter.answer(req, res)) return;
  // (bench:profile -- --pass-through; the prefix test keeps URL parsing off the calls it measures)
  if (req.url?.startsWith('/__profile') && profiler.answer(req, res, () => meter.requests)) return;
  meter.requests++;
  pool
    .stream(
      {
        path: req.url ?? '/',
        method: 'POST',
        headers: pick(req.headers, REQUEST_HEADERS) as Record<string, string>,
        body: req,
        opaque: res,
      },
      answerInto,
    )
    .catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
