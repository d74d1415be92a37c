import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, onCore } from './child.js';

/**
 * `@portkey-ai/gateway`, the comparison gateway of bench/all.ts: installed on first use into a cache
 * directory outside the repository (never a dependency of this one), as .ci/run installs node@24.
 * `BENCH_PORTKEY_VERSION` picks the version (default: the registry's latest at first install).
 */
const CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'svc-router-bench', 'portkey');
const ENTRY = join(CACHE, 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js');

/** The installed gateway's entry script and version; installs it when missing. */
export function ensurePortkey(): { entry: string; version: string } {
  if (!existsSync(ENTRY)) {
    const spec = `@portkey-ai/gateway@${process.env.BENCH_PORTKEY_VERSION ?? 'latest'}`;
    process.stderr.write(`bench: installing ${spec} into ${CACHE}\n`);
    const npm = spawnSync(
      'npm',
      ['install', '--prefix', CACHE, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', spec],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (npm.status !== 0 || !existsSync(ENTRY)) throw new Error(`could not install ${spec} into ${CACHE}`);
  }
  const pkg = join(CACHE, 'node_modules', '@portkey-ai', 'gateway', 'package.json');
  const { version } = JSON.parse(
    spawnSync(process.execPath, ['-p', `JSON.stringify(require(${JSON.stringify(pkg)}))`]).stdout.toString(),
  ) as { version: string };
  return { entry: ENTRY, version };
}

/**
 * Starts the gateway on core `cpu`, bound to 127.0.0.1 only (its server listens on every interface:
 * lib/loopback-only.mjs narrows it), headless (no UI), in production mode (no dev logging); resolves
 * with its URL once it answers. Calls name the upstream per request (`x-portkey-provider`,
 * `x-portkey-custom-host`): portkeyHeaders.
 */
export async function startPortkey(
  entry: string,
  cpu: number | undefined,
): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const preload = fileURLToPath(new URL('./loopback-only.mjs', import.meta.url));
  const [command, args] = onCore(cpu, process.execPath, [
    '--import',
    preload,
    entry,
    `--port=${port}`,
    '--headless',
  ]);
  const child = spawn(command, args, {
    // its errors are counted as failed calls; its stack traces (one per failed stream) would bury the run's output
    stdio: ['ignore', 'ignore', 'ignore'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'production' },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return { child, url };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error('@portkey-ai/gateway did not start');
}

/** The headers sending a Portkey call to the OpenAI-format upstream at `upstreamUrl`. */
export function portkeyHeaders(upstreamUrl: string): Record<string, string> {
  return {
    'x-portkey-provider': 'openai',
    'x-portkey-custom-host': `${upstreamUrl}/v1`,
    authorization: 'Bearer sk-bench-key',
  };
}
