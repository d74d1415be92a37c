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
