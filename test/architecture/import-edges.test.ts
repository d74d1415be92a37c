import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The library's modules import downwards only (docs/architecture.md). Each rule names a module and the
// modules it must never import, type-only imports included: these edges once pointed back up.
const FORBIDDEN: Record<string, readonly string[]> = {
  alerting: ['router'],
  providers: ['testing', 'config'],
  strategies: ['config'],
};

const SRC = resolve(import.meta.dirname, '../../src');
const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The top-level module of src/ a relative import of `file` lands in. */
function importedModules(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => relative(SRC, resolve(dirname(file), m[1]!)).split('/')[0]!);
}

describe('the import graph of src/', () => {
  for (const [module, forbidden] of Object.entries(FORBIDDEN)) {
    it(`has no import from ${module}/ into ${forbidden.join(' or ')}/`, () => {
      const edges = filesUnder(join(SRC, module)).flatMap((file) =>
        importedModules(file)
          .filter((target) => forbidden.includes(target))
          .map((target) => `${relative(SRC, file)} -> ${target}/`),
      );
      expect(edges).toEqual([]);
    });
  }
});
