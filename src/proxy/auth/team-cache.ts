import { LookupCache } from './lookup-cache.js';

/** What the auth path needs of a key's team. */
export interface TeamStatus {
  blocked: boolean;
}

/** Reads one team's status from the database; undefined when there is no such team. */
export type TeamLookup = (teamId: string) => Promise<TeamStatus | undefined>;

/**
 * Teams by id (`key_cache_ttl`), so that checking a key's team on every call costs no database round
 * trip once warm. Blocking or unblocking through this process applies at once.
 */
export class TeamCache extends LookupCache<TeamStatus> {}
