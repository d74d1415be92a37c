// The proxy's package.json names the library as `file:..` (the workspace's root), which npm resolves in a
// checkout; a packed proxy must name a version instead. Run by the proxy's `prepack` (`pin`) and
// `postpack` (`restore`): `pin` keeps package.json byte for byte in package.json.prepack-backup and
// writes `^<the library's version>` in its place; `restore` puts the backup back.
//   node ../scripts/pin-library.mjs pin|restore      (in proxy/)
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const manifest = join(root, 'proxy/package.json');
const backup = `${manifest}.prepack-backup`;
const LIBRARY = '@svc/router';

if (process.argv[2] === 'pin') {
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (pkg.dependencies?.[LIBRARY]?.startsWith('file:')) {
    writeFileSync(backup, text);
    pkg.dependencies[LIBRARY] = `^${version}`;
    writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
  }
} else if (process.argv[2] === 'restore') {
  if (existsSync(backup)) renameSync(backup, manifest);
} else {
  console.error('usage: node scripts/pin-library.mjs pin|restore');
  process.exit(2);
}
