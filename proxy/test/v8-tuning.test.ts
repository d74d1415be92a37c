import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { gatewayV8FlagsFor } from '../src/v8-tuning.js';

const TUNING = join(import.meta.dirname, '../src/v8-tuning.ts');

/** What `tuneV8ForGateway()` returns in a fresh node started with `nodeArgs` (the flags are process-wide). */
async function tunedIn(nodeArgs: readonly string[]): Promise<string[]> {
  const script = `const { tuneV8ForGateway } = await import(${JSON.stringify(TUNING)}); console.log(JSON.stringify(tuneV8ForGateway()));`;
  const { stdout } = await promisify(execFile)(process.execPath, [
    ...nodeArgs,
    '--import',
    'tsx',
    '--input-type=module',
    '--eval',
    script,
  ]);
  return JSON.parse(stdout) as string[];
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

  it('are set by tuneV8ForGateway, which names them', async () => {
    expect(await tunedIn([])).toEqual(['--no-allocation-site-pretenuring']);
  });

  it('are not set by tuneV8ForGateway over a command line that chose otherwise', async () => {
    expect(await tunedIn(['--allocation-site-pretenuring'])).toEqual([]);
  });
});
