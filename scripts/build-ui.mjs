// Builds the proxy's admin page (ui/) into dist/ui/: index.html, app.js (one esbuild bundle of the
// TypeScript under ui/src, no runtime dependencies) and app.css. Run by `npm run build` and by the test
// suite's global setup, so `npm test` works on a fresh checkout.
import { copyFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));

/** Writes dist/ui/ from ui/; resolves when it is complete. */
export async function buildUi() {
  const out = `${root}dist/ui/`;
  await mkdir(out, { recursive: true });
  await build({
    entryPoints: [`${root}ui/src/main.ts`],
    outfile: `${out}app.js`,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  await copyFile(`${root}ui/index.html`, `${out}index.html`);
  await copyFile(`${root}ui/app.css`, `${out}app.css`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildUi();
