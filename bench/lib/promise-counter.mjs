// Preloaded into a server by bench/gateway-promises.ts (`--import` in NODE_OPTIONS): counts every promise
// the process makes (an async hook's `init`), and writes the count so far to BENCH_PROMISE_FILE on
// SIGUSR2. Not for timing: with the hook on, V8 makes promises it would otherwise skip (an `await`'s
// throwaway), so the counts say how many a call makes relative to another build, not what it costs.
import { createHook } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_PROMISE_FILE;
let promises = 0;
if (file) {
  createHook({
    init(_id, type) {
      if (type === 'PROMISE') promises++;
    },
  }).enable();
  process.on('SIGUSR2', () => writeFileSync(file, String(promises)));
}
