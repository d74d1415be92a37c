import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { FailureWindow } from '../../src/cooldown/failure-window.js';

const MINUTE = 60_000;

describe('FailureWindow', () => {
  it('counts a deployment’s calls and failures within the current minute only', () => {
    const window = new FailureWindow();
    window.success('a', 0);
    window.failure('a', 'fail', 1000);
    window.failure('a', 'rateLimit', 2000);
    expect(window.counts('a', 3000)).toEqual({ calls: 3, failures: 2 });
    expect(window.counts('a', MINUTE)).toEqual({ calls: 0, failures: 0 });
    expect(window.failure('a', 'fail', MINUTE)).toMatchObject({ calls: 1, fails: 1 });
  });

  it('keeps nothing of past minutes, however many deployments were counted (one per wildcard model)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const window = new FailureWindow();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100_000; i++) window.failure(`openai/*:model-${i}`, 'fail', 1000);
    window.success('a', MINUTE + 1000);
    gc();
    // kept, 100,000 counts and their names are about 15 MB
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(3 * 1024 * 1024);
    expect(window.counts('a', MINUTE + 2000)).toEqual({ calls: 1, failures: 0 });
  });
});
