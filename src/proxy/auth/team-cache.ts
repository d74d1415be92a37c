import { LRUCache } from 'lru-cache';

/** What the auth path needs of a key's team. */
export interface TeamStatus {
  blocked: boolean;
}

/** Reads one team's status from the database; undefined when there is no such team. */
export type TeamLookup = (teamId: string) => Promise<TeamStatus | undefined>;

const MISSING = Object.freeze({ missing: true as const });
type Entry = TeamStatus | typeof MISSING;

/**
 * Teams by id, kept for a short TTL so that checking a key's team on every call costs no database
 * round trip once warm. Concurrent misses share one query; an unknown team is remembered too. Blocking
 * or unblocking through this process invalidates the entry at once; other processes see the change
 * within the TTL (`key_cache_ttl`).
 */
export class TeamCache {
  readonly #cache: LRUCache<string, Entry>;

  constructor(lookup: TeamLookup, options: { ttlMs: number; max?: number }) {
    this.#cache = new LRUCache<string, Entry>({
      max: options.max ?? 10_000,
      ttl: Math.max(1, options.ttlMs),
      fetchMethod: async (teamId) => (await lookup(teamId)) ?? MISSING,
    });
  }

  /** The team's status, from memory when fresh, else from the database. */
  async get(teamId: string): Promise<TeamStatus | undefined> {
    const entry = await this.#cache.fetch(teamId);
    return entry === undefined || 'missing' in entry ? undefined : entry;
  }

  /** Forgets one team: the next call reads it again. */
  invalidate(teamId: string): void {
    this.#cache.delete(teamId);
  }
}
