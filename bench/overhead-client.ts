// One measured client of bench/overhead.ts and bench/all.ts, in its own process: `direct` (undici's
// request() to the upstream), `floor` (undici's dispatch() with a handler that only collects the body:
// the least any client can do), `router` (router.acompletion to the same upstream), or streamed:
// `direct-stream` (request() with `"stream": true`, each event's JSON parsed) and `router-stream` (every chunk
// of router.acompletion's stream read). Prints one JSON line of results. With BENCH_INFLIGHT=N (and an
// upstream that holds its answers, fast-upstream.ts --hold-ms) it measures instead the heap each call
// in flight holds: N calls started at once, the heap read after a full GC while they wait. With
// BENCH_ALLOCATED=1 it measures the bytes each call allocates, freed or not: V8's sampling heap
// profiler over `count` calls, counting objects the GC has since collected (a figure that, unlike
// CPU time, barely moves between runs; garbage sets how often the young generation is collected);
// with BENCH_ALLOCATED=promoted, only the bytes that lived through a young-generation collection
// (what a full collection must free). BENCH_ALLOCATED_PROFILE=<file> keeps that heap profile and
// BENCH_CPU_PROFILE=<file> a CPU profile of the measured calls. The router is the built package
// (dist/), as users run it.

import { writeFileSync } from 'node:fs';
import type { HeapProfiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Router } from '@svc/router';
import { Pool } from 'undici';
import { load, quantile } from './lib/stats.js';
import { WARMUP_CALLS } from './lib/warm-up.js';

const [mode, url, countArg, concurrencyArg] = process.argv.slice(2);
const count = Number(countArg);
const concurrency = Number(concurrencyArg);
const messages = [{ role: 'user' as const, content: 'Say hello.' }];

let task: () => Promise<unknown>;
let close: () => Promise<void>;
const stream = mode?.endsWith('-stream') ?? false;
if (mode === 'direct-stream') {
  const pool = new Pool(url!);
  task = async () => {
    const res = await pool.request({
      path: '/v1/chat/completions',
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-key' },
      body: JSON.stringify({ model: 'gpt-4o', messages, stream: true }),
    });
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
    // read as a caller uses a stream, like the router's chunks: each event's JSON parsed (the plain
    // `direct` client parses its answer too); the least an SSE client does: split at blank lines
    let rest = '';
    for await (const bytes of res.body) {
      const text = rest + (bytes as Buffer).toString('utf8');
      let start = 0;
      for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n', start)) {
        const data = text.slice(start + 6, end); // after 'data: '
        if (data !== '[DONE]') JSON.parse(data);
        start = end + 2;
      }
      rest = text.slice(start);
    }
  };
  close = () => pool.close();
} else if (mode === 'direct') {
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
  task = stream
    ? async () => {
        const chunks = await router.acompletion({ model: 'gpt-4o', messages, stream: true });
        for await (const _ of chunks) {
          // every chunk read, as a caller does
        }
      }
    : () => router.acompletion({ model: 'gpt-4o', messages });
  close = () => router.close();
}

/** V8 takes these flags, which @types/node does not list: without them only what is still live counts. */
interface Sampling extends HeapProfiler.StartSamplingParameterType {
  includeObjectsCollectedByMajorGC: boolean;
  includeObjectsCollectedByMinorGC: boolean;
}

interface AllocationNode {
  selfSize: number;
  children: AllocationNode[];
}

const inflight = Number(process.env.BENCH_INFLIGHT ?? 0);
if (inflight > 0) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  await load(Math.min(1000, count), inflight, task); // warm-up: JIT and connections
  gc();
  const idle = process.memoryUsage().heapUsed;
  const calls = Array.from({ length: inflight }, task);
  await new Promise((resolve) => setTimeout(resolve, 150)); // the upstream holds each answer longer
  gc();
  const busy = process.memoryUsage().heapUsed;
  await Promise.all(calls);
  await close();
  process.stdout.write(`${JSON.stringify({ mode, bytesPerCall: (busy - idle) / inflight })}\n`);
  process.exit(0);
}

// JIT and connections: lib/warm-up.ts says why this many
const warmUp = await load(WARMUP_CALLS, concurrency, task);
const allocated = process.env.BENCH_ALLOCATED;
if (allocated === '1' || allocated === 'promoted') {
  const session = new Session();
  session.connect();
  const sampling: Sampling = {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    // `promoted`: only what lived through a young-generation collection (promoted to the old
    // generation, or allocated there at once when V8 pretenures its allocation site)
    includeObjectsCollectedByMinorGC: allocated === '1',
  };
  await session.post('HeapProfiler.startSampling', sampling);
  await load(count, concurrency, task);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as {
    profile: { head: AllocationNode };
  };
  await close();
  if (process.env.BENCH_ALLOCATED_PROFILE) {
    writeFileSync(process.env.BENCH_ALLOCATED_PROFILE, JSON.stringify(profile));
  }
  // the nodes' self sizes are the sampled allocations scaled up to estimates of all of them
  const total = (node: AllocationNode): number =>
    node.children.reduce((sum, child) => sum + total(child), node.selfSize);
  const bytes = total(profile.head);
  process.stdout.write(`${JSON.stringify({ mode, bytesPerCall: bytes / count })}\n`);
  process.exit(0);
}
// BENCH_CPU_PROFILE=<file>: a CPU profile of the measured calls (the warm-up left out), in Chrome
// DevTools' format; the profiler's own cost inflates the figures printed with it
const cpuProfile = process.env.BENCH_CPU_PROFILE;
const profiler = cpuProfile ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.setSamplingInterval', { interval: 50 });
  await profiler.post('Profiler.start');
}
const { latenciesUs, seconds, cpuUsPerCall } = await load(count, concurrency, task);
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(cpuProfile!, JSON.stringify(profile));
}
await close();
process.stdout.write(
  `${JSON.stringify({
    mode,
    rps: count / seconds,
    p50: quantile(latenciesUs, 0.5),
    p99: quantile(latenciesUs, 0.99),
    cpuUsPerCall,
    warmUpCalls: WARMUP_CALLS,
    warmUpCpuUsPerCall: warmUp.cpuUsPerCall,
  })}\n`,
);
