// Run by `prepack` after the build: refuses to pack a package that would not work. Every export and
// `bin` of package.json must exist in dist/, and every source map must name sources the package ships
// (src/ is in `files`), so a debugger or a stack trace with --enable-source-maps lands on real TypeScript.
// Silent when all is well (npm pack --json prints what scripts print).
//   node scripts/check-package.mjs [package folder]     (the library's when none is given)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] ? resolve(process.argv[2]) : fileURLToPath(new URL('../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const problems = [];

/** Whether `file` (absolute) is inside one of the package's `files` entries. */
const shipped = (file) =>
  pkg.files.some((entry) => !entry.startsWith('!') && !relative(join(root, entry), file).startsWith('..'));

for (const [subpath, target] of Object.entries(pkg.exports)) {
  for (const file of typeof target === 'string' ? [target] : Object.values(target))
    if (!existsSync(join(root, file)))
      problems.push(`export ${subpath}: ${file} does not exist (run npm run build)`);
}

for (const [name, file] of Object.entries(pkg.bin ?? {}))
  if (!existsSync(join(root, file))) problems.push(`bin ${name}: ${file} does not exist (run npm run build)`);

// the admin page the proxy serves (scripts/build-ui.mjs)
const built =
  pkg.name === '@svc/router-proxy' ? ['dist/ui/index.html', 'dist/ui/app.js', 'dist/ui/app.css'] : [];
for (const file of built)
  if (!existsSync(join(root, file))) problems.push(`${file} does not exist (run npm run build)`);

function* maps(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* maps(path);
    else if (entry.name.endsWith('.map')) yield path;
  }
}

if (existsSync(join(root, 'dist'))) {
  for (const map of maps(join(root, 'dist'))) {
    const { sources = [], sourceRoot = '' } = JSON.parse(readFileSync(map, 'utf8'));
    for (const source of sources) {
      const file = resolve(dirname(map), sourceRoot, source);
      if (!existsSync(file) || !shipped(file))
        problems.push(`${relative(root, map)}: its source ${relative(root, file)} is not in the package`);
    }
  }
}

if (problems.length > 0) {
  console.error(`The package is not ready to pack:\n  ${problems.slice(0, 20).join('\n  ')}`);
  if (problems.length > 20) console.error(`  ... and ${problems.length - 20} more`);
  process.exit(1);
}
