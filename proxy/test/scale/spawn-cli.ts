import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const CLI = join(import.meta.dirname, '../../src/cli/main.ts');

export interface CliProcess {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
}

/**
 * Runs `svc-router` with these arguments (through tsx, as `npm run` would in development); `nodeArgs`
 * go to node before the script.
 */
export function runCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  nodeArgs: readonly string[] = [],
): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, ...env },
  });
  let text = '';
  child.stdout?.on('data', (d) => {
    text += d;
  });
  child.stderr?.on('data', (d) => {
    text += d;
  });
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string);
  return { child, output: () => text, exited };
}

/** The URL the process prints once it serves (every worker, with --workers). */
export function listeningUrl(cli: CliProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    void cli.exited.then((code) => reject(new Error(`exited (${code}) before listening:\n${cli.output()}`)));
    createInterface({ input: cli.child.stdout! }).on('line', (line) => {
      const match = /listening on (\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
  });
}

/** Keeps `concurrency` chat calls in flight on `url` until `stop()`; collects the call ids served. */
export function load(url: string, masterKey: string, concurrency: number) {
  const served: string[] = [];
  let stopped = false;
  const call = async () => {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    }).catch(() => undefined);
    if (res?.status === 200) served.push(res.headers.get('x-svc-call-id')!);
    await res?.body?.cancel();
  };
  const running = Array.from({ length: concurrency }, async () => {
    while (!stopped) await call();
  });
  return {
    served,
    stop: async () => {
      stopped = true;
      await Promise.all(running);
    },
  };
}
