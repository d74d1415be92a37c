import { MemoryStore } from '../../src/stores/memory-store.js';
import type { RoutingStrategy, SelectionContext } from '../../src/strategies/strategy.js';
import { testDeployment } from '../../src/testing/index.js';
import type { Deployment, MinuteUsage, SvcParams } from '../../src/types/index.js';

export const MODEL = 'gpt-4o';

/** Deployments of one group, by id, with these `svc_params` each (e.g. `{ a: { rpm: 2 }, b: {} }`). */
export function group(params: Record<string, Partial<SvcParams>>): Deployment[] {
  return Object.entries(params).map(([id, svc_params]) =>
    testDeployment({ id, model_name: MODEL, svc_params: { model: 'openai/gpt-4o', ...svc_params } }),
  );
}

/** A selection context; `usage` as the router passes it (aligned with the candidates). */
export function context(usage?: readonly MinuteUsage[]): SelectionContext {
  return { model: MODEL, request: { model: MODEL, messages: [{ role: 'user', content: 'hello' }] }, usage };
}

/** A strategy's synchronous choice, by id (strategies here never answer with a Promise). */
export function choose(
  strategy: RoutingStrategy,
  candidates: readonly Deployment[],
  usage?: readonly MinuteUsage[],
): string | undefined {
  const chosen = strategy.select(candidates, context(usage));
  if (chosen instanceof Promise) throw new Error('expected a synchronous choice');
  return chosen?.id;
}

/** How many of `n` selections chose each deployment. */
export function tally(
  strategy: RoutingStrategy,
  candidates: readonly Deployment[],
  n: number,
  usage?: readonly MinuteUsage[],
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const id = choose(strategy, candidates, usage) ?? 'none';
    counts[id] = (counts[id] ?? 0) + 1;
  }
  return counts;
}

/** A clock that stands still unless moved, starting on a whole minute. */
export function fakeClock(start = 1_800_000_000_000): { now: () => number; advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance(ms) {
      t += ms;
    },
  };
}

/** A memory store that counts the operations made on it. */
export class CountingStore extends MemoryStore {
  reads = 0;
  writes = 0;
  override getMany<T = unknown>(keys: readonly string[]): Array<T | undefined> {
    this.reads++;
    return super.getMany<T>(keys);
  }
  override get<T = unknown>(key: string): T | undefined {
    this.reads++;
    return super.get<T>(key);
  }
  override increment(key: string, by?: number, options?: { ttlMs?: number }): number {
    this.writes++;
    return super.increment(key, by, options);
  }
  override set(key: string, value: unknown, options?: { ttlMs?: number }): void {
    this.writes++;
    super.set(key, value, options);
  }
}

/**
 * A store that answers with Promises, like a networked one, and counts round trips the way a
 * pipelining client (ioredis `enableAutoPipelining`) makes them: commands issued in the same
 * synchronous run of code go out together as one round trip.
 */
export class PipelinedStore {
  readonly inner: MemoryStore;
  /** Round trips made; `reads` of them carried a read. */
  roundTrips = 0;
  readRoundTrips = 0;
  /** Commands sent, by kind. */
  readonly commands = { getMany: 0, get: 0, increment: 0, set: 0, delete: 0 };
  #open: { read: boolean } | undefined;

  constructor(now?: () => number) {
    this.inner = new MemoryStore(now ? { now } : {});
  }

  #send<T>(kind: keyof PipelinedStore['commands'], run: () => T): Promise<T> {
    this.commands[kind]++;
    if (!this.#open) {
      const batch = { read: false };
      this.#open = batch;
      this.roundTrips++;
      queueMicrotask(() => {
        if (batch.read) this.readRoundTrips++;
        this.#open = undefined;
      });
    }
    if (kind === 'get' || kind === 'getMany') this.#open.read = true;
    return new Promise((resolve) => setImmediate(() => resolve(run())));
  }

  get<T = unknown>(key: string): Promise<T | undefined> {
    return this.#send('get', () => this.inner.get<T>(key));
  }
  set(key: string, value: unknown, options?: { ttlMs?: number }): Promise<void> {
    return this.#send('set', () => this.inner.set(key, value, options));
  }
  increment(key: string, by?: number, options?: { ttlMs?: number }): Promise<number> {
    return this.#send('increment', () => this.inner.increment(key, by, options));
  }
  getMany<T = unknown>(keys: readonly string[]): Promise<Array<T | undefined>> {
    return this.#send('getMany', () => this.inner.getMany<T>(keys));
  }
  delete(key: string): Promise<void> {
    return this.#send('delete', () => this.inner.delete(key));
  }
}
