import { performance } from 'node:perf_hooks';
import { inspect } from 'node:util';
import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import { redactSecrets } from '../errors/redact.js';
import { requireRedisClient } from './redis-client.js';
import { type RedisStoreOptions, type ResolvedRedisOptions, resolveRedisOptions } from './redis-options.js';
import type { Store, StoreWriteOptions } from './store.js';
import { shareSlot } from './store-keys.js';

export type { RedisNode, RedisStoreOptions } from './redis-options.js';

type Client = Redis | Cluster;

/** What went wrong with a command: it timed out, Redis is unreachable, or it answered with an error. */
export type RedisStoreErrorCode = 'timeout' | 'unavailable' | 'overloaded' | 'closed' | 'command';

/**
 * A RedisStore command failed. The message says which command, where and why; it never holds the
 * password or the values sent. The router catches it and goes on with its local state.
 */
export class RedisStoreError extends Error {
  override readonly name = 'RedisStoreError';
  constructor(
    message: string,
    readonly code: RedisStoreErrorCode,
  ) {
    super(message);
  }
}

/** The script of `increment`: one round trip, and the TTL only on the increment that creates the key. */
const INCREMENT_SCRIPT = `
local created = redis.call('EXISTS', KEYS[1]) == 0
local n = redis.pcall('INCRBY', KEYS[1], ARGV[1])
if type(n) == 'table' and n.err then n = redis.call('INCRBYFLOAT', KEYS[1], ARGV[1]) end
if created and tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return n`;

interface ScriptedClient {
  svcIncrement(key: string, by: string, ttlMs: string): Promise<number | string>;
}

/** Reconnect soon, then every second at most, with jitter so a fleet does not reconnect in step. */
const reconnectDelay = (attempt: number): number =>
  Math.min(50 * 2 ** attempt, 1_000) + Math.floor(Math.random() * 100);

/**
 * A `Store` on Redis (or Redis Cluster) through ioredis: routers on one Redis and one namespace share
 * cooldowns and counters. Values are stored as JSON under `<namespace>:<key>`; `getMany` is one MGET,
 * `increment` one Lua script.
 *
 * It never makes a caller wait long: each command fails after `commandTimeoutMs` (250 ms); while Redis
 * is unreachable commands fail at once (nothing is queued offline), after a timeout they fail at once
 * for `backoffMs`, and at most `maxPending` commands are ever unanswered. A connection that stops
 * answering is dropped and re-established (every second at most), so shared state resumes on its own.
 *
 * @example
 * const store = new RedisStore({ url: 'redis://:s3cret@127.0.0.1:6379', namespace: 'prod-eu' });
 * const router = new Router(modelList, settings, { store });
 * @throws ConfigError when an option is invalid (the password is never quoted); MissingPeerError when
 * ioredis (an optional peer) is not installed; each command rejects with a RedisStoreError.
 */
export class RedisStore implements Store {
  readonly #options: ResolvedRedisOptions;
  readonly #client: Client;
  readonly #prefix: string;
  #pending = 0;
  /** Until when (performance.now) commands fail at once, after a timeout. */
  #backoffUntil = 0;
  /** Whether the client was ever ready: before that, a command waits for the first connection. */
  #everReady = false;
  /** Settles when the first connection attempt does: ready, or failed (then commands fail at once). */
  readonly #firstAttempt: Promise<void>;
  /** Why the connection last failed (redacted). */
  #lastError: string | undefined;
  #closed = false;

  constructor(options: RedisStoreOptions = {}) {
    this.#options = resolveRedisOptions(options);
    this.#prefix = `${this.#options.namespace}:`;
    this.#client = this.#connect();
    this.#client.defineCommand('svcIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
    this.#client.on('error', (error: unknown) => {
      this.#lastError = this.#redact(error instanceof Error ? error.message : String(error));
    });
    this.#firstAttempt = new Promise((resolve) => {
      this.#client.once('ready', resolve);
      this.#client.once('error', resolve);
    });
    this.#client.on('ready', () => {
      this.#everReady = true;
      this.#lastError = undefined;
    });
  }

  #connect(): Client {
    const o = this.#options;
    const { Redis, Cluster } = requireRedisClient(o.shown);
    const common: RedisOptions = {
      username: o.username,
      password: o.password,
      connectTimeout: o.connectTimeoutMs,
      // a connection whose replies stop is dropped (and its unanswered commands failed) after this long
      socketTimeout: 4 * o.commandTimeoutMs,
      // nothing waits for a connection, nothing is resent: callers go on with local state instead
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      retryStrategy: reconnectDelay,
      // the reads one call issues in one tick (cooldowns, usage) go out in one write: one round trip
      enableAutoPipelining: true,
    };
    const { target } = o;
    if (target.kind === 'cluster') {
      const clusterOptions: ClusterOptions = {
        redisOptions: common,
        enableOfflineQueue: false,
        enableAutoPipelining: true,
        clusterRetryStrategy: reconnectDelay,
      };
      return new Cluster(
        target.nodes.map((n) => ({ host: n.host, port: n.port })),
        clusterOptions,
      );
    }
    if (target.kind === 'url') return new Redis(target.url, common);
    return new Redis({ ...common, host: target.host, port: target.port });
  }

  get<T = unknown>(key: string): Promise<T | undefined> {
    return this.#send('GET', (c) => c.get(this.#prefix + key)).then((raw) => this.#decode<T>(raw));
  }

  set(key: string, value: unknown, options: StoreWriteOptions = {}): Promise<void> {
    const json = JSON.stringify(value);
    if (json === undefined)
      return Promise.reject(
        new TypeError('RedisStore.set: the value is not JSON data (undefined or a function)'),
      );
    const ttlMs = options.ttlMs;
    return this.#send('SET', (c) =>
      ttlMs && ttlMs > 0
        ? c.set(this.#prefix + key, json, 'PX', Math.max(1, Math.ceil(ttlMs)))
        : c.set(this.#prefix + key, json),
    ).then(() => undefined);
  }

  increment(key: string, by = 1, options: StoreWriteOptions = {}): Promise<number> {
    if (!Number.isFinite(by))
      return Promise.reject(new TypeError('RedisStore.increment: `by` must be a finite number'));
    const ttlMs = options.ttlMs && options.ttlMs > 0 ? Math.max(1, Math.ceil(options.ttlMs)) : 0;
    return this.#send('INCREMENT', (c) =>
      (c as unknown as ScriptedClient).svcIncrement(this.#prefix + key, String(by), String(ttlMs)),
    ).then(Number);
  }

  getMany<T = unknown>(keys: readonly string[]): Promise<Array<T | undefined>> {
    if (keys.length === 0) return Promise.resolve([]);
    const full = keys.map((k) => this.#prefix + k);
    // a cluster takes one MGET only for keys of one slot; others are read in parallel, one GET each
    const read =
      this.#options.target.kind !== 'cluster' || shareSlot(full)
        ? this.#send('MGET', (c) => c.mget(full))
        : this.#send('GET', (c) => Promise.all(full.map((k) => c.get(k))));
    return read.then((raws) => raws.map((raw) => this.#decode<T>(raw)));
  }

  delete(key: string): Promise<void> {
    return this.#send('DEL', (c) => c.del(this.#prefix + key)).then(() => undefined);
  }

  /** Closes the connection: a clean QUIT when Redis answers in time, else a disconnect. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const client = this.#client;
    if (client.status !== 'ready') {
      client.disconnect();
      return;
    }
    const quit = client.quit().then(
      () => true,
      () => false,
    );
    const timer = new Promise<boolean>((resolve) =>
      setTimeout(resolve, this.#options.commandTimeoutMs, false).unref(),
    );
    if (!(await Promise.race([quit, timer]))) client.disconnect();
  }

  /** Where it connects and its namespace; never the password. */
  [inspect.custom](): string {
    return `RedisStore { target: ${this.#options.shown}, namespace: ${this.#options.namespace}, status: ${this.#client.status} }`;
  }

  #decode<T>(raw: string | null): T | undefined {
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch {
      // a key written by something else: its text is not repeated (it may be anything)
      throw new RedisStoreError(
        `Redis on ${this.#options.shown}: a key holds a value that is not JSON`,
        'command',
      );
    }
  }

  #redact(text: string): string {
    return redactSecrets(text, this.#options.secrets);
  }

  #error(command: string, code: RedisStoreErrorCode, reason: string): RedisStoreError {
    return new RedisStoreError(
      `Redis ${command} on ${this.#options.shown} failed: ${this.#redact(reason)}`,
      code,
    );
  }

  /** Why a command cannot be sent now, or undefined when it can. */
  #refusal(command: string): RedisStoreError | undefined {
    if (this.#closed) return this.#error(command, 'closed', 'the store is closed');
    if (this.#pending >= this.#options.maxPending)
      return this.#error(command, 'overloaded', `${this.#pending} commands are still unanswered`);
    if (this.#backoffUntil > 0 && performance.now() < this.#backoffUntil)
      return this.#error(command, 'timeout', 'Redis did not answer in time recently; retrying shortly');
    const status = this.#client.status;
    if (status !== 'ready' && (this.#everReady || this.#lastError !== undefined))
      return this.#error(command, 'unavailable', `not connected (${this.#lastError ?? status})`);
    return undefined;
  }

  /**
   * Waits for the first connection attempt: resolves when it is ready, rejects when it failed or took
   * longer than `ms` (and then the commands that follow fail at once for `backoffMs` instead of each
   * waiting as long).
   */
  #connected(command: string, ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#backoffUntil = performance.now() + this.#options.backoffMs;
        reject(this.#error(command, 'timeout', `not connected within ${ms} ms`));
      }, ms);
      this.#firstAttempt.then(() => {
        clearTimeout(timer);
        const refusal = this.#refusal(command);
        if (refusal) reject(refusal);
        else resolve();
      });
    });
  }

  /**
   * Sends one command (or one batch, one round trip) with the timeout, the pending bound and the
   * back-off applied. Before the first connection is ready, waits for it within the same timeout.
   */
  #send<T>(command: string, run: (client: Client) => Promise<T>): Promise<T> {
    const refusal = this.#refusal(command);
    if (refusal) return Promise.reject(refusal);
    this.#pending++;
    const client = this.#client;
    const timeoutMs = this.#options.commandTimeoutMs;
    const sent = this.#everReady ? run(client) : this.#connected(command, timeoutMs).then(() => run(client));
    const settled = () => {
      this.#pending--;
    };
    sent.then(settled, settled);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#backoffUntil = performance.now() + this.#options.backoffMs;
        reject(this.#error(command, 'timeout', `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      sent.then(
        (value) => {
          clearTimeout(timer);
          this.#backoffUntil = 0;
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (error instanceof RedisStoreError) return reject(error);
          const reason = error instanceof Error ? error.message : String(error);
          const code = this.#client.status === 'ready' ? 'command' : 'unavailable';
          reject(this.#error(command, code, reason));
        },
      );
    });
  }
}
