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
