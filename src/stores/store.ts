/** A value now, or a Promise of it: a store that answers synchronously (memory) costs no extra tick. */
export type MaybePromise<T> = T | Promise<T>;

/** Options of a write. */
export interface StoreWriteOptions {
  /** Forget the value after this many milliseconds. */
  ttlMs?: number;
}

/**
 * State that several router processes must share (cooldowns, usage counters, cached responses) lives
 * behind this interface: in memory by default, Redis when configured. Values are JSON-serialisable.
 *
 * Each method may answer synchronously (return the value) or with a Promise; callers check with
 * `isPromise` and only await when they must, so an in-memory store adds no microtask to a call.
 * Implement it to bring your own store and run `storeContract` from `@svc/router/testing` against it.
 */
export interface Store {
  get<T = unknown>(key: string): MaybePromise<T | undefined>;
  set(key: string, value: unknown, options?: StoreWriteOptions): MaybePromise<void>;
  /** Adds `by` (default 1) to a numeric value, creating it at 0; the TTL applies when the key is created. */
  increment(key: string, by?: number, options?: StoreWriteOptions): MaybePromise<number>;
  /** The values of several keys in one round trip, in the order asked. */
  getMany<T = unknown>(keys: readonly string[]): MaybePromise<Array<T | undefined>>;
  delete(key: string): MaybePromise<void>;
  close?(): MaybePromise<void>;
}

/** Whether a store answer is a Promise (to be awaited) rather than the value itself. */
export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
