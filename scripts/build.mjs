// `npm run build`: compiles src/ into dist/ with `tsc -b` (incremental: a build with nothing changed
// takes about a second of CPU instead of 20 s), then builds the admin page (scripts/build-ui.mjs).
// `tsc -b` trusts its build info (dist/.tsbuildinfo) and would not notice a deleted output, so a
// source file of the last build without its dist/ counterpart drops the build info first and
// everything is rebuilt (a source file newer than the build info is tsc's to see).
// Needs the devDependencies (typescript, esbuild): `npm install` in a checkout, or npm itself when it
// installs the package from git (it installs them to run `prepare`).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildUi } from './build-ui.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const src = join(root, 'src');
const dist = join(root, 'dist');
const buildInfo = join(dist, '.tsbuildinfo');

/** The dist/ file of each source file older than `since` (`src/a/b.ts` -> `dist/a/b.js`). */
function* expectedOutputs(dir, since) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* expectedOutputs(path, since);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && statSync(path).mtimeMs <= since)
      yield join(dist, relative(src, path)).replace(/\.ts$/, '.js');
  }
}

if (existsSync(buildInfo)) {
  const missing = [...expectedOutputs(src, statSync(buildInfo).mtimeMs)].find((file) => !existsSync(file));
  if (missing) {
    console.log(`build: ${relative(root, missing)} is missing, rebuilding everything`);
    rmSync(buildInfo);
  }
}

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-b', join(root, 'tsconfig.build.json')], {
  stdio: 'inherit',
});
if (compiled.status !== 0) process.exit(compiled.status ?? 1);
await buildUi();
