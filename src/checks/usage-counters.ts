import { isPromise, type MaybePromise, type Store } from '../stores/store.js';
import { groupKey } from '../stores/store-keys.js';
import type { Deployment, MinuteUsage } from '../types/index.js';
import { MINUTE_MS, minuteOf } from './minute-limits.js';

/** A minute's counters outlive it by a minute: a router whose clock is a little behind still finds them. */
const COUNTER_TTL_MS = 2 * MINUTE_MS;

// tagged by model group: the counters one call reads together share a Redis Cluster slot
const requestsKey = (d: Deployment, minute: number): string =>
  groupKey('usage', d.modelName, `${minute}:rpm:${d.id}`);
const tokensKey = (d: Deployment, minute: number): string =>
  groupKey('usage', d.modelName, `${minute}:tpm:${d.id}`);

/** A counter as the store returns it: a number, or its text (a Redis string), or nothing yet. */
const countOf = (value: unknown): number => (typeof value === 'number' ? value : Number(value) || 0);

/**
 * Per-deployment request and token counters of the current wall-clock minute (`Math.floor(now / 60000)`),
 * kept in the store so that every router on it counts together. Keys expire two minutes after they are
 * created, so the store holds at most two minutes of counters.
 *
 * Reads are one `getMany` for all the deployments asked about; writes are single increments that are
 * never waited for. A store that fails (or rejects) is reported to `onStoreError` and read as "no usage
 * known": limits are then not enforced rather than every call failing.
 */
export class UsageCounters {
  readonly #keys = new WeakMap<readonly Deployment[], { minute: number; keys: readonly string[] }>();

  constructor(
    private readonly store: Store,
    private readonly onStoreError: (error: unknown) => void = () => {},
  ) {}

  /**
   * This minute's usage of each deployment, in the order given: synchronously when the store answers
   * synchronously (no microtask), else a Promise. Undefined when the store failed.
   */
  read(deployments: readonly Deployment[], now: number): MaybePromise<MinuteUsage[] | undefined> {
    const keys = this.#keysOf(deployments, minuteOf(now));
    let answer: MaybePromise<unknown[]>;
    try {
      answer = this.store.getMany(keys);
    } catch (error) {
      this.onStoreError(error);
      return undefined;
    }
    if (!isPromise(answer)) return usageOf(answer, deployments.length);
    return answer.then(
      (values) => usageOf(values, deployments.length),
      (error: unknown) => {
        this.onStoreError(error);
        return undefined;
      },
    );
  }

  // a group's list is the same array on every call: its keys are built once a minute, not per read
  #keysOf(deployments: readonly Deployment[], minute: number): readonly string[] {
    const cached = this.#keys.get(deployments);
    if (cached?.minute === minute) return cached.keys;
    const keys: string[] = new Array(deployments.length * 2);
    for (let i = 0; i < deployments.length; i++) {
      const deployment = deployments[i]!;
      keys[2 * i] = requestsKey(deployment, minute);
      keys[2 * i + 1] = tokensKey(deployment, minute);
    }
    this.#keys.set(deployments, { minute, keys });
    return keys;
  }

  /** Counts one request sent to a deployment this minute. */
  countRequest(deployment: Deployment, now: number): void {
    this.#increment(requestsKey(deployment, minuteOf(now)), 1);
  }

  /** Counts the tokens a call on a deployment used this minute. */
  countTokens(deployment: Deployment, tokens: number, now: number): void {
    if (tokens > 0) this.#increment(tokensKey(deployment, minuteOf(now)), tokens);
  }

  #increment(key: string, by: number): void {
    try {
      const written = this.store.increment(key, by, { ttlMs: COUNTER_TTL_MS });
      if (isPromise(written)) written.catch(this.onStoreError);
    } catch (error) {
      this.onStoreError(error);
    }
  }
}

function usageOf(values: readonly unknown[], count: number): MinuteUsage[] {
  const usage: MinuteUsage[] = new Array(count);
  for (let i = 0; i < count; i++) usage[i] = { rpm: countOf(values[2 * i]), tpm: countOf(values[2 * i + 1]) };
  return usage;
}
