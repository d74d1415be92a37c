import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

/** Whether processes can be pinned to cores: `taskset` is on the PATH and there are two cores or more. */
export const CAN_PIN: boolean =
  cpus().length >= 2 && spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;

/** The command running `command args` on core `cpu` (taskset), or as it is when pinning is not possible. */
export function onCore(cpu: number | undefined, command: string, args: string[]): [string, string[]] {
  if (cpu === undefined || !CAN_PIN) return [command, args];
  return ['taskset', ['-c', String(cpu), command, ...args]];
}

/** Pins this process, all its threads, to core `cpu` (no-op when pinning is not possible). */
export function pinSelf(cpu: number): void {
  if (CAN_PIN)
    spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' });
}

/**
 * Runs a TypeScript bench script in its own Node process (through tsx) and returns it. Its tsconfig has
 * no `paths`, so `@svc/router` resolves to the built package (dist/), as users run it.
 */
export function spawnScript(
  script: string,
  args: string[],
  options: { cpu?: number | undefined; env?: Record<string, string> } = {},
): ChildProcess {
  const path = fileURLToPath(new URL(`../${script}`, import.meta.url));
  const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
  const [command, argv] = onCore(options.cpu, process.execPath, ['--import', 'tsx', path, ...args]);
  return spawn(command, argv, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig, ...options.env },
  });
}

/** The first line a child prints (e.g. the URL it listens on). */
export async function firstLine(child: ChildProcess): Promise<string> {
  let buffer = '';
  for await (const chunk of child.stdout!) {
    buffer += String(chunk);
    const newline = buffer.indexOf('\n');
    if (newline !== -1) return buffer.slice(0, newline);
  }
  throw new Error('child exited before printing');
}

/**
 * The first line a server child prints that starts with `prefix` (its address line). Everything else it
 * prints, before and after, is read and dropped: a server that logs to stdout must never block on a
 * full pipe, nor die of a closed one.
 */
export function addressLine(child: ChildProcess, prefix = 'http'): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let found = false;
    child.stdout!.on('data', (chunk) => {
      if (found) return;
      buffer += String(chunk);
      for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.startsWith(prefix)) {
          found = true;
          buffer = '';
          resolve(line);
          return;
        }
      }
    });
    child.once('exit', () => {
      if (!found) reject(new Error('child exited before printing its address'));
    });
  });
}

/** Runs a child to completion and parses the JSON it prints last. */
export async function runJson<T>(
  script: string,
  args: string[],
  options: Parameters<typeof spawnScript>[2] = {},
): Promise<T> {
  const child = spawnScript(script, args, options);
  let out = '';
  child.stdout!.on('data', (chunk) => {
    out += String(chunk);
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`${script} exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as T;
}

/** Sends a child SIGTERM and waits for it to exit; SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A TCP port free on 127.0.0.1 a moment ago, for a child told which port to listen on. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
