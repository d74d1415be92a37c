// Run by `npm run lint`: the proxy (proxy/) sees the library only as a user's server would, through
// `@svc/router` and its subpath exports (CONTRACT 6.1). Fails on any import in proxy/ whose relative path
// leaves proxy/ (only proxy/test may reach the test helpers both packages share, in test/support/), and on
// any import of the library's files by path (`@svc/router/src/...`, `@svc/router/dist/...`).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const proxy = join(root, 'proxy');
const SHARED_TEST_SUPPORT = join(root, 'test/support');
const SOURCE = /\.(?:[cm]?[jt]s|tsx)$/;
// static and dynamic imports, re-exports, vi.mock and require, with their specifier
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.(?:mock|doMock|importActual)\s*\(\s*|\brequire\s*\(\s*)(['"])([^'"\n]+)\1/g;

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (SOURCE.test(entry.name)) yield path;
  }
}

const inside = (dir, path) => path === dir || path.startsWith(dir + sep);
const problems = [];
for (const file of sources(proxy)) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[2];
    const line = text.slice(0, match.index).split('\n').length;
    const where = `${relative(root, file)}:${line}`;
    if (/^@svc\/router\/(?:src|dist)(?:\/|$)/.test(specifier)) {
      problems.push(
        `${where}: '${specifier}' imports a library file by path; use @svc/router or a subpath export`,
      );
      continue;
    }
    if (!specifier.startsWith('.') && !specifier.startsWith('/')) continue;
    const target = resolve(dirname(file), specifier);
    if (inside(proxy, target)) continue;
    if (inside(SHARED_TEST_SUPPORT, target) && inside(join(proxy, 'test'), file)) continue;
    problems.push(
      `${where}: '${specifier}' reaches out of proxy/ (import the library as @svc/router; shared test helpers live in test/support/)`,
    );
  }
}

if (problems.length > 0) {
  console.error(`The proxy imports the library by path (CONTRACT 6.1):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
