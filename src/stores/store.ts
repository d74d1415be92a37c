/** Options of a write. */
export interface StoreWriteOptions {
  /** Forget the value after this many milliseconds. */
  ttlMs?: number;
}

/**
 * State that several router processes must share (cooldowns, usage counters, cached responses) lives
 * behind this interface: in memory by default, Redis when configured. Values are JSON-serialisable.
 * Implement it to bring your own store; run `test/stores/store-contract.ts` against it.
 */
export interface Store {
  get<T = unknown>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, options?: StoreWriteOptions): Promise<void>;
  /** Adds `by` (default 1) to a numeric value, creating it at 0; the TTL applies when the key is created. */
  increment(key: string, by?: number, options?: StoreWriteOptions): Promise<number>;
  getMany<T = unknown>(keys: readonly string[]): Promise<Array<T | undefined>>;
  delete(key: string): Promise<void>;
  close?(): Promise<void>;
}
