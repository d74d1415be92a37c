import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The embedded database's worker thread loads its own copy of every module it imports. The library
// (`@svc/router`) once came in through a schema-name check, for one error class: half a second of
// every start (a second from the TypeScript sources) and the library's heap in the thread.

const DB = resolve(import.meta.dirname, '../../src/db');
// what loads a module: `import ... from`, `export ... from`, a bare `import 'x'` and `import('x')`;
// `import type` and `export type` are erased from the compiled thread
const VALUE_IMPORT =
  /(?:^(?:import|export)\s+(?!type\b)[^'"]*?from\s+|^import\s+|\bimport\s*\(\s*)['"]([^'"]+)['"]/gm;

/** Every module the worker's entry loads, followed through relative imports: path → its bare imports. */
function workerGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string) => {
    if (graph.has(file)) return;
    const bare: string[] = [];
    graph.set(file, bare);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(VALUE_IMPORT)) {
      if (specifier!.startsWith('.')) visit(resolve(dirname(file), specifier!.replace(/\.js$/, '.ts')));
      else bare.push(specifier!);
    }
  };
  visit(entry);
  return graph;
}

describe('the embedded database worker thread', () => {
  it('loads only Node built-ins and PGlite, not the library', () => {
    const graph = workerGraph(resolve(DB, 'pglite-worker.ts'));
    const imports = [...graph].flatMap(([file, bare]) =>
      bare
        .filter((s) => !s.startsWith('node:') && !s.startsWith('@electric-sql/pglite'))
        .map((s) => `${relative(DB, file)} -> ${s}`),
    );
    expect(graph.size).toBeGreaterThan(2); // the walk followed the entry's imports
    expect(imports).toEqual([]);
  });
});
