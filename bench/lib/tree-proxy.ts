import { spawn } from 'node:child_process';
import { join } from 'node:path';
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
  stop(): Promise<void>;
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
  return { url, key, meterUrl, jwt, stop: () => stopChild(child) };
}
