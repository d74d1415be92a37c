import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALL_PATH } from '../../src/router/call-path.js';

describe('docs/architecture.md', () => {
  it('lists the layers of call-path.ts in their order, execute last', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../docs/architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## The call path'), doc.indexOf('## Where state lives'));
    const rows = [...section.matchAll(/^\| ([a-z-]+) \|/gm)].map((m) => m[1]);
    expect(rows).toEqual([...CALL_PATH.map((layer) => layer.name), 'execute']);
  });
});
