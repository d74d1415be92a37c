import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { addressLine, onCore, stopChild } from './child.js';

/** A checkout's bench proxy (its bench/proxy-server.ts), started by `startTreeProxy`. */
export interface TreeProxy {
  url: string;
  /** A virtual key (budget set). */
  key: string;
  /** The side server: CPU use (lib/cpu-meter.ts) and CPU profiles (lib/profiler.ts). */
  meterUrl: string;
  /** A team JWT. */
  jwt: string;
  /** The server's process id (taskset hands its own over to the server). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/**
 * Throws unless `tree`'s bench server would load the gateway and the library of `tree` itself. A
 * checkout whose node_modules is a link to another checkout's (a quick way to make one) resolves
 * `@svc/router-proxy` to that other checkout, and a comparison of the two would measure one twice.
 */
export function checkTreeLoadsItself(tree: string): void {
  const own = realpathSync(tree);
  for (const [name, inTree] of [
    ['@svc/router-proxy', 'proxy'],
    ['@svc/router', '.'],
  ] as const) {
    // where Node looks for a bare import from the tree: the nearest node_modules holding it
    let dir = own;
    let found: string | undefined;
    for (;;) {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(candidate)) {
        found = realpathSync(candidate);
        break;
      }
      if (dirname(dir) === dir) break;
      dir = dirname(dir);
    }
    const expected = realpathSync(join(own, inTree));
    if (found !== expected) {
      throw new Error(
        `${tree}: its bench server would load ${name} from ${found ?? 'nowhere'}, not from ${expected}; ` +
          `give the checkout its own node_modules (npm ci in it), or link node_modules/${name} to it`,
      );
    }
  }
}

/**
 * Starts `tree`'s bench/proxy-server.ts (a built checkout of this repository, with its own tsconfig)
 * in front of `upstreamUrl`, on core `cpu`, spend on `databaseUrl`; `env` adds to its environment.
 * For the benches that compare checkouts: bench:profile and bench:ab.
 */
export async function startTreeProxy(
  tree: string,
  upstreamUrl: string,
  options: { cpu: number; databaseUrl: string; env?: Record<string, string> },
): Promise<TreeProxy> {
  checkTreeLoadsItself(tree);
  const [command, args] = onCore(options.cpu, process.execPath, [
    '--import',
    'tsx',
    join(tree, 'bench/proxy-server.ts'),
    upstreamUrl,
  ]);
  const child = spawn(command, args, {
    cwd: tree,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: join(tree, 'bench/tsconfig.json'),
      BENCH_DATABASE_URL: options.databaseUrl,
      ...options.env,
    },
  });
  const [url, key, meterUrl, jwt] = (await addressLine(child)).split(' ') as [string, string, string, string];
  return { url, key, meterUrl, jwt, pid: child.pid, stop: () => stopChild(child) };
}
