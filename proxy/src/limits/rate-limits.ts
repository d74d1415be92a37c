import { isPromise, type Store } from '@svc/router';
import { ProxyError } from '../http/proxy-error.js';
import type { LimitedOwner } from './limited-owner.js';

const MINUTE_MS = 60_000;

/**
 * `rpm_limit` and `tpm_limit` of keys and teams, counted per wall-clock minute in the store (memory, or
 * Redis so several proxies share one count; the proxy gives a store that counts in memory while Redis
 * is away, so a limit never fails a call). A request is counted when admitted; tokens when the call
 * ends.
 */
export class RateLimits {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /** Whether `owner` has a limit to count (else `admit` has nothing to do). */
  applies(owner: LimitedOwner): boolean {
    return owner.rpmLimit !== null || owner.tpmLimit !== null;
  }

  /** Counts this request; throws 429 with `retry-after` when the owner is over either limit this minute. */
  async admit(owner: LimitedOwner): Promise<void> {
    if (!this.applies(owner)) return;
    const { rpmLimit, tpmLimit } = owner;
    const minute = Math.floor(this.now() / MINUTE_MS);
    if (tpmLimit !== null) {
      const used = await this.store.get<number>(tpmKey(owner.id, minute));
      if ((used ?? 0) >= tpmLimit) throw this.#limited(owner, 'tpm_limit', tpmLimit, minute);
    }
    if (rpmLimit !== null) {
      const count = await this.store.increment(rpmKey(owner.id, minute), 1, { ttlMs: 2 * MINUTE_MS });
      if (count > rpmLimit) throw this.#limited(owner, 'rpm_limit', rpmLimit, minute);
    }
  }

  /** Adds a finished call's tokens to the owner's count for this minute. */
  recordTokens(ownerId: string, tokens: number): void {
    if (tokens <= 0) return;
    const minute = Math.floor(this.now() / MINUTE_MS);
    const done = this.store.increment(tpmKey(ownerId, minute), tokens, { ttlMs: 2 * MINUTE_MS });
    if (isPromise(done)) done.catch(() => {});
  }

  #limited(owner: LimitedOwner, limit: 'rpm_limit' | 'tpm_limit', value: number, minute: number): ProxyError {
    const seconds = Math.max(1, Math.ceil(((minute + 1) * MINUTE_MS - this.now()) / 1000));
    const who = owner.label.charAt(0).toUpperCase() + owner.label.slice(1);
    return new ProxyError(
      429,
      'rate_limit_exceeded',
      `${who} is over its ${limit} of ${value} this minute; try again in ${seconds} seconds.`,
      { 'retry-after': String(seconds) },
    );
  }
}

function rpmKey(ownerId: string, minute: number): string {
  return `proxy:rpm:${ownerId}:${minute}`;
}

function tpmKey(ownerId: string, minute: number): string {
  return `proxy:tpm:${ownerId}:${minute}`;
}
