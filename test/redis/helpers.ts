import { connect } from 'node:net';
import { Redis } from 'ioredis';

/** The real Redis these tests run against. */
export const REDIS_URL = 'redis://127.0.0.1:6379';

/** A namespace no other test file or run uses, so runs on one Redis never collide. */
export function uniqueNamespace(file: string): string {
  return `svc-router-test:${file}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

/** Deletes every key of a namespace (and nothing else). */
export async function flushNamespace(namespace: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * Resolves once `store` answers a command: a test's short `commandTimeoutMs` also bounds the connect,
 * which a loaded machine may take longer for. What the test checks comes after.
 */
export async function connected(
  store: { get(key: string): Promise<unknown> },
  withinMs = 5000,
): Promise<void> {
  const until = performance.now() + withinMs;
  for (;;) {
    try {
      await store.get('k');
      return;
    } catch (error) {
      if (performance.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** A command Redis ran, as MONITOR shows it: its arguments and where it came from (`lua` for a script's). */
export interface MonitoredCommand {
  args: string[];
  source: string;
}

// `+1795959347.510829 [0 127.0.0.1:47868] "get" "ns:k"`; arguments quoted, `"` and `\` escaped
const MONITOR_LINE = /^\+[\d.]+ \[\d+ ([^\]]+)\] (.*)$/;
const QUOTED = /"((?:[^"\\]|\\.)*)"/g;

/**
 * The commands Redis receives that touch `namespace`, in order, read off MONITOR on a socket of its
 * own. Not ioredis's monitor mode: it switches to that mode a turn after MONITOR's `OK`, so a line
 * that arrives with the `OK` (any client of the server, another test file's too) is taken for a
 * reply, and the monitor fails with "Command queue state error".
 */
export async function monitorNamespace(
  namespace: string,
): Promise<{ commands: MonitoredCommand[]; stop(): void }> {
  const { hostname, port } = new URL(REDIS_URL);
  const socket = connect(Number(port), hostname);
  socket.setEncoding('utf8');
  const commands: MonitoredCommand[] = [];
  let rest = '';
  await new Promise<void>((resolve, reject) => {
    // `on`, not `once`: an error after MONITOR's `OK` must not go unhandled (a rejection then is a no-op)
    socket.on('error', reject);
    socket.on('data', (text: string) => {
      const lines = (rest + text).split('\r\n');
      rest = lines.pop()!;
      for (const line of lines) {
        if (line === '+OK') resolve();
        const parsed = MONITOR_LINE.exec(line);
        if (!parsed) continue;
        const args = [...parsed[2]!.matchAll(QUOTED)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
        if (args.some((a) => a.startsWith(`${namespace}:`))) commands.push({ args, source: parsed[1]! });
      }
    });
    socket.write('MONITOR\r\n');
  });
  return { commands, stop: () => socket.destroy() };
}
