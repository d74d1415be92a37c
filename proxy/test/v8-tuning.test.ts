import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { gatewayV8FlagsFor } from '../src/v8-tuning.js';

const TUNING = join(import.meta.dirname, '../src/v8-tuning.ts');

/**
 * A fresh node started with `nodeArgs` (the flags are process-wide, so never this test's process):
 * what `tuneV8ForGateway()` returned when `tune`, and V8's flag-dependent cache tag afterwards
 * (`v8.cachedDataVersionTag()` hashes the flags in force: equal tags, equal flags).
 */
async function nodeWith(
  nodeArgs: readonly string[],
  tune: boolean,
): Promise<{ set?: string[]; tag: number }> {
  const script = `const { cachedDataVersionTag } = await import('node:v8');
    const set = ${tune} ? (await import(${JSON.stringify(TUNING)})).tuneV8ForGateway() : undefined;
    console.log(JSON.stringify({ set, tag: cachedDataVersionTag() }));`;
  const { stdout } = await promisify(execFile)(process.execPath, [
    ...nodeArgs,
    '--import',
    'tsx',
    '--input-type=module',
    '--eval',
    script,
  ]);
  return JSON.parse(stdout) as { set?: string[]; tag: number };
}

describe('the gateway V8 flags', () => {
  it('turn allocation-site pretenuring off in a process started without V8 flags', () => {
    expect(gatewayV8FlagsFor(['--enable-source-maps'])).toEqual(['--no-allocation-site-pretenuring']);
  });

  it('leave the flag alone when the command line turns it on', () => {
    expect(gatewayV8FlagsFor(['--allocation-site-pretenuring'])).toEqual([]);
  });

  it('are not set again when the command line already turns it off', () => {
    expect(gatewayV8FlagsFor(['--no-allocation-site-pretenuring'])).toEqual([]);
  });

  it('read the flag however V8 accepts it spelled', () => {
    for (const spelling of [
      '-allocation-site-pretenuring',
      '--allocation_site_pretenuring',
      '--noallocation-site-pretenuring',
      '--no_allocation_site_pretenuring',
    ])
      expect(gatewayV8FlagsFor([spelling]), spelling).toEqual([]);
  });

  it('do not take node options that begin with "no" for the flag', () => {
    expect(gatewayV8FlagsFor(['--no-warnings', '--node-memory-debug'])).toEqual([
      '--no-allocation-site-pretenuring',
    ]);
  });

  it('are in force after tuneV8ForGateway, which names them', async () => {
    const [tuned, flagged, plain] = await Promise.all([
      nodeWith([], true),
      nodeWith(['--no-allocation-site-pretenuring'], false),
      nodeWith([], false),
    ]);
    expect(tuned.set).toEqual(['--no-allocation-site-pretenuring']);
    expect(tuned.tag).toBe(flagged.tag); // as if node had been started with the flag
    expect(tuned.tag).not.toBe(plain.tag);
  });

  it('are not set by tuneV8ForGateway over a command line that chose otherwise', async () => {
    const [tuned, chosen] = await Promise.all([
      nodeWith(['--allocation-site-pretenuring'], true),
      nodeWith(['--allocation-site-pretenuring'], false),
    ]);
    expect(tuned.set).toEqual([]);
    expect(tuned.tag).toBe(chosen.tag);
  });
});
