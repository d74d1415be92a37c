// `npm run build`: compiles the library (src/ -> dist/), then the proxy (proxy/src/ -> proxy/dist/, which
// sees the library through its built dist/ as `@svc/router`), each with `tsc -b` (incremental: a build
// with nothing changed takes about a second of CPU instead of 20 s), then builds the admin page
// (scripts/build-ui.mjs). `tsc -b` trusts its build info (dist/.tsbuildinfo) and would not notice a
// deleted output, so a source file of the last build without its dist/ counterpart drops the build info
// first and that package is rebuilt (a source file newer than the build info is tsc's to see).
// `node scripts/build.mjs library` builds the library alone.
// Needs the devDependencies (typescript, esbuild): `npm install` in a checkout, or npm itself when it
// installs the package from git (it installs them to run `prepare`).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildUi } from './build-ui.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The dist/ file of each source file older than `since` (`src/a/b.ts` -> `dist/a/b.js`). */
function* expectedOutputs(src, dist, dir, since) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* expectedOutputs(src, dist, path, since);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && statSync(path).mtimeMs <= since)
      yield join(dist, relative(src, path)).replace(/\.ts$/, '.js');
  }
}

/** Compiles the package in `dir` (its src/ into its dist/, by its tsconfig.build.json). */
function compile(dir) {
  const src = join(dir, 'src');
  const dist = join(dir, 'dist');
  const buildInfo = join(dist, '.tsbuildinfo');
  if (existsSync(buildInfo)) {
    const since = statSync(buildInfo).mtimeMs;
    const missing = [...expectedOutputs(src, dist, src, since)].find((file) => !existsSync(file));
    if (missing) {
      console.log(
        `build: ${relative(root, missing)} is missing, rebuilding ${relative(root, dir) || 'the library'}`,
      );
      rmSync(buildInfo);
    }
  }
  const compiled = spawnSync(process.execPath, [tsc, '-b', join(dir, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  if (compiled.status !== 0) process.exit(compiled.status ?? 1);
}

compile(root);
if (process.argv[2] !== 'library' && existsSync(join(root, 'proxy/tsconfig.build.json'))) {
  compile(join(root, 'proxy'));
  await buildUi();
}
