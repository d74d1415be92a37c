import { ioredis } from '../peers/ioredis.js';
import type { OptionalPeer } from '../peers/optional-peer.js';

// Kept out of redis-store.ts so that RedisStore's public declarations never name ioredis: an app
// that does not install it still type-checks.

/**
 * ioredis, an optional peer, required by the first RedisStore: only routers that use Redis install it
 * and pay its load (about 50 ms). Synchronously, because the constructor connects at once and a first
 * command must not wait for a module load within its 250 ms. `library` is the package it requires.
 *
 * @throws MissingPeerError naming ioredis and the store (`shown`: where it connects, no password).
 */
export function requireRedisClient(
  shown: string,
  library: OptionalPeer<typeof import('ioredis')> = ioredis,
): typeof import('ioredis') {
  return library.loadSync(`RedisStore (${shown})`);
}
