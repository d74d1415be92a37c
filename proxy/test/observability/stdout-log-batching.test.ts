import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

const CHILD = join(import.meta.dirname, 'log-lines-child.ts');

function runChild(lines: number, stayMs: number, ...more: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, String(lines), String(stayMs), ...more], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  return { child, exited };
}

describe('the stdout logger (lines written in batches)', () => {
  it('writes a lone line within a few hundred ms, without waiting for a batch to fill', async () => {
    const { child, exited } = runChild(1, 5_000);
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    const receivedAt = Date.now();
    child.kill();
    await exited;
    const logged = JSON.parse(line) as { level: number; msg: string; at: number };
    expect(logged).toMatchObject({ level: 30, msg: 'a line' });
    // flushed every 100 ms; the process stays on, so only the interval can have written it
    expect(receivedAt - logged.at).toBeLessThan(600);
  });

  it('writes every line still waiting when the process exits', async () => {
    const { child, exited } = runChild(3, 0);
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
    });
    const [code] = await exited;
    expect(code).toBe(0);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number });
    expect(lines.map((l) => l.line)).toEqual([0, 1, 2]);
  });

  it('writes a fatal line at once, with the lines waiting before it, though the process is killed next', async () => {
    const { child, exited } = runChild(3, 5_000, 'fatal');
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
    });
    const [, signal] = await exited;
    expect(signal).toBe('SIGKILL');
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; level: number });
    expect(lines.map((l) => [l.line, l.level])).toEqual([
      [0, 30],
      [1, 30],
      [2, 30],
      [3, 60],
    ]);
  });
});
