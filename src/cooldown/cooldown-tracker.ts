import { RateLimitError } from '../errors/classes.js';
import { RETRY_AFTER_CAP_MS } from '../errors/retry-after.js';
import type { RouterError } from '../errors/router-error.js';
import { isPromise, type MaybePromise, type Store } from '../stores/store.js';
import { groupKey } from '../stores/store-keys.js';
import { type CooldownPolicy, failureKind, shouldCool } from './cooldown-rules.js';
import { FailureWindow } from './failure-window.js';

/** The `cooldown` event payload (CONTRACT 5.3). `cooldown_time` is in seconds. */
export interface CooldownEvent {
  model_id: string;
  model_group: string;
  status: number;
  cooldown_time: number;
}

/** A deployment as the tracker needs it. */
export interface CooldownSubject {
  id: string;
  group: string;
  /** This deployment's cooldown in ms (its own `cooldown_time`, else the router's); 0 never cools it. */
  cooldownMs: number;
  /** Whether its calls have somewhere else to go (a peer, or fallbacks); if not, it is never cooled. */
  coolable: boolean;
  /** The `model_id`s of its group (itself included): whether another can take calls decides how long a 429 cools it. */
  peers?: readonly string[];
}

/** The settings the tracker applies; they come with each failure, so a settings change applies at once. */
export interface CooldownSettings {
  policy: CooldownPolicy;
  /** `disable_cooldowns`. */
  disabled: boolean;
}

export interface CooldownTrackerOptions {
  store: Store;
  /**
   * Whether other routers may write to the store: then each call reads its group's cooldown keys. A
   * store private to this router holds nothing the local view lacks, so it is never read.
   */
  shared: boolean;
  onCooldown(event: CooldownEvent): void;
  /** A store read or write failed: the local view still holds. */
  onStoreError?(error: unknown): void;
}

/** What the health view shows of a deployment. */
export interface CooldownState {
  state: 'ok' | 'cooling' | 'half_open';
  /** When a cooldown ends (ms), while cooling. */
  until?: number;
  /** This minute's calls and failures. */
  calls: number;
  failures: number;
}

interface CoolingState {
  /** When the cooldown ends; after it the deployment is half-open. */
  until: number;
  /** A half-open trial call is in flight. */
  trial: boolean;
}

interface StoredCooldown {
  until: number;
  status: number;
}

/**
 * `cooldown:{<group>}:<id>`: the group is the key's hash tag, so the keys one call reads (its group's)
 * live on one Redis Cluster slot and are read by one MGET.
 */
const keyOf = (group: string, id: string): string => groupKey('cooldown', group, id);

/**
 * Which deployments are cooling down. A failure is counted per deployment per minute; the rules of
 * CONTRACT 5.3 decide when it cools. After `cooldown_time` a deployment is half-open: one call at a
 * time until one succeeds (then its counts reset and it is fully back); a failure cools it again.
 *
 * Cooldowns are written to the store with a TTL of exactly `cooldown_time`, under a key tagged by the
 * deployment's group. With a shared store, each call first reads its group's cooldown keys (`refresh`,
 * one `getMany`), so routers on one store agree; a store that answers synchronously costs no extra tick.
 */
export class CooldownTracker {
  readonly #states = new Map<string, CoolingState>();
  /** Cooldowns other routers wrote, by id: when each ends. */
  readonly #remote = new Map<string, number>();
  readonly #window = new FailureWindow();

  constructor(private readonly options: CooldownTrackerOptions) {}

  /** True when nothing is cooling or half-open, here or as last read from the store. */
  get idle(): boolean {
    return this.#states.size === 0 && this.#remote.size === 0;
  }

  /**
   * Reads the shared cooldowns of a group's deployments from the store. Returns nothing (at once) when
   * the store is private or answered synchronously; a Promise only when the store must be waited for.
   */
  refresh(group: { readonly name: string; readonly ids: readonly string[] }): MaybePromise<void> {
    if (!this.options.shared) return;
    const { ids } = group;
    let answer: MaybePromise<Array<StoredCooldown | undefined>>;
    try {
      answer = this.options.store.getMany<StoredCooldown>(ids.map((id) => keyOf(group.name, id)));
    } catch (error) {
      this.options.onStoreError?.(error);
      return;
    }
    if (!isPromise(answer)) return this.#merge(ids, answer);
    return answer.then(
      (values) => this.#merge(ids, values),
      (error: unknown) => this.options.onStoreError?.(error),
    );
  }

  #merge(ids: readonly string[], values: ReadonlyArray<StoredCooldown | undefined>): void {
    for (let i = 0; i < ids.length; i++) {
      const until = values[i]?.until;
      if (typeof until === 'number') this.#remote.set(ids[i]!, until);
      else if (this.#remote.size > 0) this.#remote.delete(ids[i]!);
    }
  }

  /** Whether a deployment may take a call now. */
  isAvailable(id: string, now: number): boolean {
    if (this.#remote.size > 0) {
      const until = this.#remote.get(id);
      if (until !== undefined) {
        if (until > now) return false;
        this.#remote.delete(id);
      }
    }
    const state = this.#states.get(id);
    return !state || (state.until <= now && !state.trial);
  }

  /** Seconds until the first of these deployments can take a call again (0 when one can now). */
  secondsUntilAvailable(ids: Iterable<string>, now: number): number {
    let earliest = Number.POSITIVE_INFINITY;
    for (const id of ids) {
      const until = Math.max(this.#states.get(id)?.until ?? 0, this.#remote.get(id) ?? 0);
      if (until <= now) return 0;
      earliest = Math.min(earliest, until);
    }
    return Number.isFinite(earliest) ? Math.max(0, Math.ceil((earliest - now) / 1000)) : 0;
  }

  /**
   * Claims a chosen deployment for a call: false when it became unavailable since it was chosen (a
   * concurrent call took its half-open trial); a half-open one now has its single trial in flight.
   */
  tryPick(id: string, now: number): boolean {
    const state = this.#states.get(id);
    if (!state) return true;
    if (state.until > now || state.trial) return false;
    state.trial = true;
    return true;
  }

  /** A call ended without telling anything about the deployment (the caller aborted, or left early). */
  released(id: string): void {
    const state = this.#states.get(id);
    if (state) state.trial = false;
  }

  success(id: string, now: number): void {
    const state = this.#states.size > 0 ? this.#states.get(id) : undefined;
    if (state) {
      if (state.until > now) return; // a call that started before the cooldown
      this.#states.delete(id);
      this.#window.reset(id);
      return;
    }
    this.#window.success(id, now);
  }

  /** Counts a failure; returns true when it cooled the deployment. */
  failure(subject: CooldownSubject, error: RouterError, now: number, settings: CooldownSettings): boolean {
    const kind = failureKind(error, settings.policy);
    const state = this.#states.get(subject.id);
    if (state) {
      state.trial = false;
      if (state.until > now || !kind) return false;
      // a failed half-open trial cools it again
      this.#cool(subject, error, now);
      return true;
    }
    if (!kind) return false;
    const counts = this.#window.failure(subject.id, kind, now);
    if (settings.disabled || subject.cooldownMs <= 0 || !subject.coolable) return false;
    if (!shouldCool(error, kind, counts, settings.policy)) return false;
    this.#cool(subject, error, now);
    return true;
  }

  /** When a deployment can take a call again (ms): now or earlier when it can, as far as this router knows. */
  availableAt(id: string, now: number): number {
    const state = this.#states.get(id);
    const local = state ? (state.trial && state.until <= now ? Number.POSITIVE_INFINITY : state.until) : 0;
    return Math.max(local, this.#remote.get(id) ?? 0);
  }

  /** A deployment's state for the health view. */
  stateOf(id: string, now: number): CooldownState {
    const counts = this.#window.counts(id, now);
    const until = Math.max(this.#states.get(id)?.until ?? 0, this.#remote.get(id) ?? 0);
    if (until > now) return { state: 'cooling', until, ...counts };
    return { state: this.#states.has(id) ? 'half_open' : 'ok', ...counts };
  }

  /**
   * How long a failure cools: a 429's `retry-after` (at most 60 s) when no other deployment of the group
   * can take calls now, since calls then wait for exactly that long before trying it again (CONTRACT
   * 6.2); else its `cooldown_time`.
   */
  #cooldownMs(subject: CooldownSubject, error: RouterError, now: number): number {
    const retryAfter = RateLimitError.isInstance(error) ? error.retryAfterMs : undefined;
    if (retryAfter === undefined || !subject.peers) return subject.cooldownMs;
    for (const peer of subject.peers)
      if (peer !== subject.id && this.isAvailable(peer, now)) return subject.cooldownMs;
    return Math.min(retryAfter, RETRY_AFTER_CAP_MS);
  }

  #cool(subject: CooldownSubject, error: RouterError, now: number): void {
    // re-cooling never shortens a cooldown: another router's longer one (as last read) is kept
    const until = Math.max(now + this.#cooldownMs(subject, error, now), this.#remote.get(subject.id) ?? 0);
    this.#states.set(subject.id, { until, trial: false });
    try {
      const written = this.options.store.set(
        keyOf(subject.group, subject.id),
        { until, status: error.status } satisfies StoredCooldown,
        { ttlMs: until - now },
      );
      if (isPromise(written)) written.catch((e: unknown) => this.options.onStoreError?.(e));
    } catch (e) {
      this.options.onStoreError?.(e); // the local view already holds the cooldown
    }
    this.options.onCooldown({
      model_id: subject.id,
      model_group: subject.group,
      status: error.status,
      cooldown_time: (until - now) / 1000,
    });
  }
}
