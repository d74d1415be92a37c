import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src/', import.meta.url));

export default defineConfig({
  resolve: {
    // The proxy's code and tests import the library by name, as any server would; under test the names
    // resolve to the library's sources, so `npm test` needs no build and tests the current code.
    alias: [
      { find: /^@svc\/router$/, replacement: `${src}index.ts` },
      { find: /^@svc\/router\/(\w+)$/, replacement: `${src}$1/index.ts` },
    ],
  },
  test: {
    // one run for both packages: the library's tests (test/) and the proxy's (proxy/test/)
    include: ['test/**/*.test.ts', 'proxy/test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // a test that opens an embedded database (PGlite) in its body needs seconds on a busy machine
    testTimeout: 30_000,
    // starting an embedded database (PGlite) takes seconds, and longer on a loaded machine
    hookTimeout: 60_000,
    pool: 'forks',
    // Both cores, and test files share a worker's module graph instead of re-importing it per file: the
    // suite runs in less than half the time (imports were 140 of its 580 s on one worker). It holds
    // because src/ keeps no module-level state; a test helper that shares a resource across files must
    // hand the next file a fresh one (see closeHttp in test/providers/openai-family-helpers.ts).
    maxWorkers: 2,
    isolate: false,
    // Node 22 and later: V8 can abort a worker that opens and closes many embedded databases with
    // `Check failed: jit_page_->allocations_.erase(addr) == 1` as it frees WebAssembly code replaced
    // by a faster tier (nodejs/node#64500; seen once here, on Node 24). With `--liftoff-only` no code
    // is replaced, so none is freed that way (`--no-wasm-tier-up` still frees it on Node 24, through
    // dynamic tiering); the proxy's database tests ran 5% faster with it on Node 20 and as fast on 24.
    execArgv: ['--liftoff-only'],
  },
});
