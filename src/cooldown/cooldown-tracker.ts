import type { RouterError } from '../errors/router-error.js';
import { isPromise, type Store } from '../stores/store.js';
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
  /** Deployments in its group: a group of one is never cooled. */
  groupSize: number;
}

export interface CooldownTrackerOptions {
  store: Store;
  onCooldown(event: CooldownEvent): void;
}

/** The settings the tracker applies; replaceable at runtime (`updateSettings`). */
export interface CooldownSettings {
  policy: CooldownPolicy;
  /** `disable_cooldowns`. */
  disabled: boolean;
}

interface CoolingState {
  /** When the cooldown ends; after it the deployment is half-open. */
  until: number;
  /** A half-open trial call is in flight. */
  trial: boolean;
}

/**
 * Which deployments are cooling down. A failure is counted per deployment per minute; the rules of
 * CONTRACT 5.3 decide when it cools. After `cooldown_time` a deployment is half-open: one call at a
 * time until one succeeds (then its counts reset and it is fully back); a failure cools it again.
 *
 * This process's view is authoritative for its own routing (so checking it costs no I/O); each cooldown
 * is also written to the store with a TTL of exactly `cooldown_time`, so it can never outlive it there.
 */
export class CooldownTracker {
  readonly #states = new Map<string, CoolingState>();
  readonly #window = new FailureWindow();
  #settings: CooldownSettings = {
    policy: { allowedFails: 3, rateLimitAllowedFails: undefined, contentPolicyAllowedFails: undefined },
    disabled: false,
  };

  constructor(private readonly options: CooldownTrackerOptions) {}

  /** Applies new settings; cooldowns in force stay. */
  configure(settings: CooldownSettings): void {
    this.#settings = settings;
  }

  /** True when no deployment is cooling or half-open: the hot path can skip every check. */
  get idle(): boolean {
    return this.#states.size === 0;
  }

  /** Whether a deployment may take a call now. */
  isAvailable(id: string, now: number): boolean {
    const state = this.#states.get(id);
    return !state || (state.until <= now && !state.trial);
  }

  /** Seconds until the first of these deployments can take a call again (0 when one can now). */
  secondsUntilAvailable(ids: Iterable<string>, now: number): number {
    let earliest = Number.POSITIVE_INFINITY;
    for (const id of ids) {
      const state = this.#states.get(id);
      if (!state) return 0;
      earliest = Math.min(earliest, state.until);
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

  /** A call ended without telling anything about the deployment (the caller aborted). */
  released(id: string): void {
    const state = this.#states.get(id);
    if (state) state.trial = false;
  }

  success(id: string, now: number): void {
    if (this.#states.size > 0 && this.#states.has(id)) {
      const state = this.#states.get(id)!;
      if (state.until > now) return; // a call that started before the cooldown
      this.#states.delete(id);
      this.#window.reset(id);
      return;
    }
    this.#window.success(id, now);
  }

  /** Counts a failure; returns true when it cooled the deployment. */
  failure(subject: CooldownSubject, error: RouterError, now: number): boolean {
    const kind = failureKind(error, this.#settings.policy);
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
    if (this.#settings.disabled || subject.cooldownMs <= 0 || subject.groupSize <= 1) return false;
    if (!shouldCool(error, kind, counts, this.#settings.policy)) return false;
    this.#cool(subject, error, now);
    return true;
  }

  #cool(subject: CooldownSubject, error: RouterError, now: number): void {
    const until = now + subject.cooldownMs;
    this.#states.set(subject.id, { until, trial: false });
    try {
      const written = this.options.store.set(
        `cooldown:${subject.id}`,
        { until, status: error.status },
        { ttlMs: subject.cooldownMs },
      );
      if (isPromise(written)) written.catch(() => undefined); // the local view already holds the cooldown
    } catch {
      // the local view already holds the cooldown
    }
    this.options.onCooldown({
      model_id: subject.id,
      model_group: subject.group,
      status: error.status,
      cooldown_time: subject.cooldownMs / 1000,
    });
  }
}
