import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Where `npm run build` (and the test suite's global setup) writes the admin page: the package's
 * `dist/ui/`. This file is `src/routes/ui.ts` under vitest and `dist/routes/ui.js` when built, both two
 * levels below the package root, so one relative path finds the same folder either way.
 */
export const UI_ASSETS_DIR = fileURLToPath(new URL('../../dist/ui/', import.meta.url));

/** The page's files and their types; nothing else under `/ui` is served. */
const ASSETS: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/** Only scripts, styles and data from this origin; no inline code, no framing, no forms elsewhere. */
export const UI_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function secureHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', UI_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
}

/**
 * `GET /ui` (the admin page) and its script and stylesheet, without auth: they hold no data; the page
 * sends the token the user types with every data call. 503 when the assets were not built.
 */
export function registerUiRoutes(app: FastifyInstance, assetsDir = UI_ASSETS_DIR): void {
  const serve = async (name: string, reply: FastifyReply) => {
    secureHeaders(reply);
    let body: Buffer;
    try {
      body = await readFile(`${assetsDir}${name}`);
    } catch {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(`The admin page is not built: no ${name} in ${assetsDir}. Run \`npm run build\`.`);
    }
    return reply
      .type(ASSETS[name] ?? 'application/octet-stream')
      .header('cache-control', 'no-cache')
      .send(body);
  };
  app.get('/ui', (_request, reply) => serve('index.html', reply));
  app.get('/ui/', (_request, reply) => serve('index.html', reply));
  for (const name of Object.keys(ASSETS)) {
    app.get(`/ui/${name}`, (_request, reply) => serve(name, reply));
  }
}
