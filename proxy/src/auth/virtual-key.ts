import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Prefix of every virtual key, so a leaked one is recognisable by secret scanners. */
export const VIRTUAL_KEY_PREFIX = 'sk-svc-';

/** A new virtual key: the prefix and 32 random bytes, base64url. Shown once, stored only as its hash. */
export function generateVirtualKey(): string {
  return VIRTUAL_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** The key's SHA-256, hex: what the database stores and what logs and spend rows name a key by. */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Whether `value` has the shape of a key hash (so `/spend/logs?key=` takes either form). */
export function isKeyHash(value: string): boolean {
  return /^[0-9a-f]{64}$/.test(value);
}

/**
 * Compares the digest of a presented secret (`secretDigest`) with the master key's in constant time:
 * comparing digests, neither the content nor the length of the master key leaks through timing.
 */
export function sameDigest(presented: Buffer, secret: Buffer): boolean {
  return timingSafeEqual(presented, secret);
}

/** The SHA-256 of a secret: what the master key is compared by, and (as hex) what a key is stored by. */
export function secretDigest(secret: string): Buffer {
  // one-shot: no Hash object per request
  return hash('sha256', secret, 'buffer');
}
