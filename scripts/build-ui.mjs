// Builds the proxy's admin page (proxy/ui/) into proxy/dist/ui/: index.html, app.js (one esbuild bundle
// of the TypeScript under proxy/ui/src, no runtime dependencies) and app.css. Run by `npm run build` and
// by the test suite's global setup, so `npm test` works on a fresh checkout.
import { copyFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ui = fileURLToPath(new URL('../proxy/ui/', import.meta.url));
const out = fileURLToPath(new URL('../proxy/dist/ui/', import.meta.url));

/** Writes proxy/dist/ui/ from proxy/ui/; resolves when it is complete. */
export async function buildUi() {
  await mkdir(out, { recursive: true });
  await build({
    entryPoints: [`${ui}src/main.ts`],
    outfile: `${out}app.js`,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  await copyFile(`${ui}index.html`, `${out}index.html`);
  await copyFile(`${ui}app.css`, `${out}app.css`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildUi();
