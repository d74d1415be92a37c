import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, onCore } from './child.js';

/**
 * `@portkey-ai/gateway`, the comparison gateway of bench/all.ts: installed on first use into a cache
 * directory outside the repository (never a dependency of this one), as .ci/run installs node@24.
 * `BENCH_PORTKEY_VERSION` picks the version when it installs (default: the registry's latest at first
 * install); a copy already installed is used as it is, whatever that variable says.
 */
// an XDG_CACHE_HOME that is empty or relative is ignored, as the XDG spec says: a relative one would
// put the install (and the node_modules it removes to reinstall) under the working directory
const XDG = process.env.XDG_CACHE_HOME;
const CACHE = join(XDG && isAbsolute(XDG) ? XDG : join(homedir(), '.cache'), 'svc-router-bench', 'portkey');

/**
 * The `@hono/node-server` Portkey is installed with. Portkey asks for `^1.3.3`, which resolves to
 * 1.19; from 1.14.2 on, a Response made over a stream takes its init's Headers as they are, so the
 * Response Portkey wraps around the upstream's stream keeps the upstream's immutable headers, and
 * Portkey's own header writes (`updateHeaders`) throw `TypeError: immutable` on every streamed answer
 * (Portkey-AI/gateway#1389 for chat completions, #1550 for `/v1/responses`). 1.14.1, the last release
 * before that change, is within 1.15.2's range and serves its streams; pinned with npm `overrides` in
 * the cache directory's package.json (which apply whatever range another Portkey version declares).
 */
const NODE_SERVER = '1.14.1';
const GATEWAY = join(CACHE, 'node_modules', '@portkey-ai', 'gateway');
const ENTRY = join(GATEWAY, 'build', 'start-server.js');

/**
 * The `version` field of an installed package's package.json, or undefined when it is not there or
 * cannot be read (an install cut short): either way, a reason to install again.
 */
function installedVersion(packageJson: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** The `@hono/node-server` the gateway loads: its own copy if npm nested one, else the hoisted one. */
function nodeServerVersion(): string | undefined {
  const nested = join(GATEWAY, 'node_modules', '@hono', 'node-server', 'package.json');
  return (
    installedVersion(nested) ??
    installedVersion(join(CACHE, 'node_modules', '@hono', 'node-server', 'package.json'))
  );
}

/**
 * The installed gateway's entry script and version; installs it when missing, or again (the same
 * version unless `BENCH_PORTKEY_VERSION` names one) when it loads another node-server.
 */
export function ensurePortkey(): { entry: string; version: string } {
  if (!existsSync(ENTRY) || nodeServerVersion() !== NODE_SERVER) {
    const version =
      process.env.BENCH_PORTKEY_VERSION ?? installedVersion(join(GATEWAY, 'package.json')) ?? 'latest';
    const spec = `@portkey-ai/gateway@${version}`;
    process.stderr.write(`bench: installing ${spec} (@hono/node-server ${NODE_SERVER}) into ${CACHE}\n`);
    // a clean install: over an earlier one, npm may leave its node-server in place and nest another
    rmSync(join(CACHE, 'node_modules'), { recursive: true, force: true });
    mkdirSync(CACHE, { recursive: true });
    writeFileSync(
      join(CACHE, 'package.json'),
      `${JSON.stringify({ private: true, overrides: { '@hono/node-server': NODE_SERVER } }, null, 2)}\n`,
    );
    const npm = spawnSync(
      'npm',
      ['install', '--prefix', CACHE, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', spec],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (npm.status !== 0 || !existsSync(ENTRY))
      throw new Error(`could not install ${spec} into ${CACHE} (npm exited with ${npm.status})`);
    const loaded = nodeServerVersion();
    // npm before 8.3 ignores `overrides`
    if (loaded !== NODE_SERVER)
      throw new Error(
        `${spec} in ${CACHE} loads @hono/node-server ${loaded ?? '(none)'}, not ${NODE_SERVER}: is npm 8.3 or later?`,
      );
  }
  const version = installedVersion(join(GATEWAY, 'package.json'));
  return { entry: ENTRY, version: version ?? 'unknown' };
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
