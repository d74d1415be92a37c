import type { Router, RouterSettings } from '@svc/router';
import { ConfigError } from '@svc/router';
import type { Database } from '../db/database.js';
import { bumpVersion, getSettings, putSettings, settingsVersions } from '../db/settings-repo.js';
import { liveUpdateProblems, settingsView } from './live-settings.js';

/** The `svc_settings` row holding the `router_settings` set through `/config/update`. */
export const ROUTER_SETTINGS = 'router_settings';
/** The `svc_settings` row counting changes to keys and teams: a newer count clears cached ones. */
export const AUTH_CHANGES = 'auth_changes';

/** What `/config/update` answers. */
export interface SettingsUpdate {
  /** Every setting in force (defaults filled in; no Redis address, credentials masked). */
  router_settings: Record<string, unknown>;
  /** The stored version this process now runs; every process runs it within a poll. */
  version: number;
}

export interface SettingsSyncOptions {
  db: Database;
  router: Router;
  /** Drops cached keys and teams: another process changed one. */
  onAuthChange(): void;
  /** @default 500 */
  pollIntervalMs?: number | undefined;
  log?: ((message: string) => void) | undefined;
}

/**
 * Keeps the processes of one deployment on the same `router_settings`: `/config/update` stores them
 * in `svc_settings` with a version, and every process polls the versions (one `SELECT` every
 * `pollIntervalMs`) and applies a newer one, so a change is in force everywhere within a poll, with or
 * without Redis. The same poll carries the count of key and team changes, which clears auth caches.
 */
export class SettingsSync {
  readonly #options: SettingsSyncOptions;
  #version = 0;
  #authChanges = 0;
  #timer: NodeJS.Timeout | undefined;
  #polling: Promise<void> | undefined;
  #failing = false;
  readonly #announcing = new Set<Promise<void>>();

  constructor(options: SettingsSyncOptions) {
    this.#options = options;
  }

  /** Applies the stored `router_settings` (over the file's), then polls until `close()`. */
  async start(): Promise<void> {
    const versions = await settingsVersions(this.#options.db);
    this.#authChanges = versions.get(AUTH_CHANGES) ?? 0;
    if (versions.has(ROUTER_SETTINGS)) await this.#applyStored();
    this.#timer = setInterval(() => void this.poll(), this.#options.pollIntervalMs ?? 500);
    this.#timer.unref();
  }

  /**
   * Checks the stored versions once and applies what changed. Never throws: a database that does not
   * answer is logged once, and its recovery once.
   */
  poll(): Promise<void> {
    this.#polling ??= this.#pollOnce().finally(() => {
      this.#polling = undefined;
    });
    return this.#polling;
  }

  async #pollOnce(): Promise<void> {
    let versions: Map<string, number>;
    try {
      versions = await settingsVersions(this.#options.db);
    } catch (error) {
      if (!this.#failing) this.#options.log?.(`settings poll failed: ${(error as Error).message}`);
      this.#failing = true;
      return;
    }
    if (this.#failing) this.#options.log?.('settings poll recovered');
    this.#failing = false;
    const changes = versions.get(AUTH_CHANGES) ?? 0;
    if (changes !== this.#authChanges) {
      this.#authChanges = changes;
      this.#options.onAuthChange();
    }
    if ((versions.get(ROUTER_SETTINGS) ?? 0) > this.#version) await this.#applyStored();
  }

  /** Reads the stored router_settings and applies them; a value this process cannot apply is logged. */
  async #applyStored(): Promise<void> {
    const stored = await getSettings(this.#options.db, ROUTER_SETTINGS).catch(() => undefined);
    if (!stored || stored.version <= this.#version) return;
    try {
      this.#options.router.updateSettings(stored.value as RouterSettings);
    } catch (error) {
      this.#options.log?.(
        `stored router_settings version ${stored.version} not applied: ${(error as Error).message}`,
      );
    }
    // not retried: the same value fails the same way until a newer version comes
    this.#version = stored.version;
  }

  /**
   * Validates `update` (the library's own settings validation, plus what cannot change live), applies
   * it here and stores the merged settings with a new version, in one transaction: a bad update
   * changes nothing anywhere.
   * @throws ConfigError naming every bad field.
   */
  async update(update: Readonly<Record<string, unknown>>): Promise<SettingsUpdate> {
    const { db, router } = this.#options;
    const problems = liveUpdateProblems(update, router.settings);
    if (problems.length > 0) throw new ConfigError('router settings', problems);
    const stored = await db.transaction(async (tx) => {
      const current = await getSettings(tx, ROUTER_SETTINGS, true);
      const merged = { ...current?.value, ...update };
      // validates across fields too (groups naming known models, fallbacks); throws before anything is stored
      router.updateSettings(merged as RouterSettings);
      return putSettings(tx, ROUTER_SETTINGS, merged);
    });
    this.#version = Math.max(this.#version, stored.version);
    return { router_settings: settingsView(router.settings), version: stored.version };
  }

  /**
   * Tells the other processes that a key or team changed (they drop their cached ones on their next
   * poll). Fire and forget: a failure is logged; they then see the change within `key_cache_ttl`.
   */
  announceAuthChange(): void {
    const announcing = bumpVersion(this.#options.db, AUTH_CHANGES).then(
      (version) => {
        // our own change needs no second clearing, unless another process's slipped in between
        if (version === this.#authChanges + 1) this.#authChanges = version;
      },
      (error: unknown) => this.#options.log?.(`could not announce a key change: ${(error as Error).message}`),
    );
    this.#announcing.add(announcing);
    void announcing.finally(() => this.#announcing.delete(announcing));
  }

  /** The stored `router_settings` version this process runs (0: none stored). */
  get version(): number {
    return this.#version;
  }

  /** Stops polling and waits for a poll and announcements under way. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await Promise.allSettled([this.#polling, ...this.#announcing]);
  }
}
