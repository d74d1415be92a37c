import { isPromise, type Store } from '../../stores/store.js';
import { ProxyError } from '../http/proxy-error.js';

const MINUTE_MS = 60_000;

/**
 * Per-key `rpm_limit` and `tpm_limit`, counted per wall-clock minute in the store (memory, or Redis so
 * several proxies share one count). A request is counted when admitted; tokens when the call ends.
 */
export class KeyRateLimits {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /** Counts this request; throws 429 with `retry-after` when the key is over either limit this minute. */
  async admit(keyHash: string, rpmLimit: number | null, tpmLimit: number | null): Promise<void> {
    if (rpmLimit === null && tpmLimit === null) return;
    const minute = Math.floor(this.now() / MINUTE_MS);
    if (tpmLimit !== null) {
      const used = await this.store.get<number>(tpmKey(keyHash, minute));
      if ((used ?? 0) >= tpmLimit) throw this.#limited('tpm_limit', tpmLimit, minute);
    }
    if (rpmLimit !== null) {
      const count = await this.store.increment(rpmKey(keyHash, minute), 1, { ttlMs: 2 * MINUTE_MS });
      if (count > rpmLimit) throw this.#limited('rpm_limit', rpmLimit, minute);
    }
  }

  /** Adds a finished call's tokens to the key's count for this minute. */
  recordTokens(keyHash: string, tokens: number): void {
    if (tokens <= 0) return;
    const minute = Math.floor(this.now() / MINUTE_MS);
    const done = this.store.increment(tpmKey(keyHash, minute), tokens, { ttlMs: 2 * MINUTE_MS });
    if (isPromise(done)) done.catch(() => {});
  }

  #limited(limit: 'rpm_limit' | 'tpm_limit', value: number, minute: number): ProxyError {
    const seconds = Math.max(1, Math.ceil(((minute + 1) * MINUTE_MS - this.now()) / 1000));
    return new ProxyError(
      429,
      'rate_limit_exceeded',
      `This key is over its ${limit} of ${value} this minute; try again in ${seconds} seconds.`,
      { 'retry-after': String(seconds) },
    );
  }
}

function rpmKey(keyHash: string, minute: number): string {
  return `proxy:rpm:${keyHash}:${minute}`;
}

function tpmKey(keyHash: string, minute: number): string {
  return `proxy:tpm:${keyHash}:${minute}`;
}
