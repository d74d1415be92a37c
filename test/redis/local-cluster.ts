import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/** A Redis Cluster of three masters on local ports, started by the test and stopped after. */
export interface LocalCluster {
  nodes: Array<{ host: string; port: number }>;
  stop(): Promise<void>;
}

/** Whether `redis-server` can be started here (the cluster tests are skipped otherwise). */
export function canStartRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const SLOTS = 16_384;

const canListen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A free port whose cluster bus port (port + 10000) is free too. */
async function clusterPort(taken: readonly number[]): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    if (!taken.includes(port) && (await canListen(port)) && (await canListen(port + 10_000))) return port;
  }
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`local cluster: ${what} not within ${timeoutMs} ms`);
}

/**
 * Starts three `redis-server --cluster-enabled yes` processes, gives each a third of the slots and joins
 * them: what `redis-cli --cluster create` does, without its fixed waits (ready in about 2 s here).
 */
export async function startLocalCluster(): Promise<LocalCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-router-cluster-'));
  const ports: number[] = [];
  for (let i = 0; i < 3; i++) ports.push(await clusterPort(ports));
  const processes: ChildProcess[] = ports.map((port) =>
    spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--cluster-node-timeout',
        '2000',
      ],
      { stdio: 'ignore' },
    ),
  );
  const clients = ports.map((port) => {
    const client = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 0 });
    client.on('error', () => {}); // refused until the server is up: retried below
    return client;
  });
  const stop = async () => {
    for (const client of clients) client.disconnect();
    for (const child of processes) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const client of clients)
      await until(() => client.connect().then(() => true), 3_000, 'redis-server up');
    const third = Math.ceil(SLOTS / 3);
    await Promise.all(
      clients.map((client, i) =>
        client.call(
          'CLUSTER',
          'ADDSLOTSRANGE',
          String(i * third),
          String(Math.min(SLOTS, (i + 1) * third) - 1),
        ),
      ),
    );
    // distinct config epochs spare the nodes the epoch-collision round that `redis-cli --cluster create`
    // avoids the same way, and each node meets every other rather than waiting for gossip to introduce them
    await Promise.all(clients.map((client, i) => client.call('CLUSTER', 'SET-CONFIG-EPOCH', String(i + 1))));
    await Promise.all(
      clients.flatMap((client, i) =>
        ports
          .filter((_, j) => j !== i)
          .map((port) => client.call('CLUSTER', 'MEET', '127.0.0.1', String(port))),
      ),
    );
    // a master reports cluster_state:ok no sooner than 2 s after it starts (Redis's writable delay), and
    // gossip runs on 100 ms ticks that a loaded CI machine stretches: 5 s was once not enough there
    await until(
      async () => {
        const infos = await Promise.all(clients.map((c) => c.call('CLUSTER', 'INFO') as Promise<string>));
        return infos.every(
          (info) => info.includes('cluster_state:ok') && info.includes('cluster_known_nodes:3'),
        );
      },
      20_000,
      'cluster_state:ok on every node',
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes: ports.map((port) => ({ host: '127.0.0.1', port })), stop };
}
