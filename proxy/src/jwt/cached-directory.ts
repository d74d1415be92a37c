import type { MaybePromise } from '@svc/router';
import type {
  JwtAuthDeps,
  KeyMappingRecord,
  OrganizationRecord,
  TeamRecord,
  UserRecord,
} from '@svc/router/jwt';
import { LookupCache } from '../auth/lookup-cache.js';

/** Lists cached as one object (a LookupCache holds objects). */
interface Listed<T> {
  items: T;
}

const NONE: readonly never[] = Object.freeze([]);

/**
 * What `cache` holds for `id`, at once when memory has it fresh (a token's team on every call costs no
 * promise), else once read; `none` when there is nothing.
 */
function itemsOf<T>(cache: LookupCache<Listed<T>>, id: string, none: T): MaybePromise<T> {
  const held = cache.cached(id);
  if (held !== undefined) return held?.items ?? none;
  return cache.get(id).then((read) => read?.items ?? none);
}

/**
 * A JWT directory whose lookups are kept for `key_cache_ttl`, as keys and teams are: a token's
 * identity (its team, user, memberships, aliases) is read from the database once, not on every call.
 * Writes of role and team sync go through to the directory and drop what they change; a change made
 * by the management routes of this process clears it (`clear()`), other processes see changes within
 * the TTL. Key mappings are not cached here: the JWT module keeps them for
 * `virtual_key_mapping_cache_ttl` itself.
 */
export class CachedJwtDirectory implements JwtAuthDeps {
  readonly #teams: LookupCache<Listed<TeamRecord | undefined>>;
  readonly #teamsByAlias: LookupCache<Listed<readonly TeamRecord[]>>;
  readonly #organizationsByAlias: LookupCache<Listed<readonly OrganizationRecord[]>>;
  readonly #users: LookupCache<Listed<UserRecord | undefined>>;
  readonly #userTeams: LookupCache<Listed<readonly string[]>>;

  constructor(
    private readonly inner: JwtAuthDeps,
    options: { ttlMs: number },
  ) {
    const cache = <T>(read: (id: string) => Promise<T>) =>
      new LookupCache<Listed<T>>(async (id) => ({ items: await read(id) }), options);
    this.#teams = cache(async (id) => inner.getTeam(id));
    this.#teamsByAlias = cache(async (alias) => inner.findTeamsByAlias(alias));
    this.#organizationsByAlias = cache(async (alias) => inner.findOrganizationsByAlias(alias));
    this.#users = cache(async (id) => inner.getUser(id));
    this.#userTeams = cache(async (id) => inner.getUserTeamIds(id));
  }

  getTeam(teamId: string): MaybePromise<TeamRecord | undefined> {
    return itemsOf(this.#teams, teamId, undefined);
  }

  findTeamsByAlias(alias: string): MaybePromise<readonly TeamRecord[]> {
    return itemsOf(this.#teamsByAlias, alias, NONE);
  }

  findOrganizationsByAlias(alias: string): MaybePromise<readonly OrganizationRecord[]> {
    return itemsOf(this.#organizationsByAlias, alias, NONE);
  }

  getUser(userId: string): MaybePromise<UserRecord | undefined> {
    return itemsOf(this.#users, userId, undefined);
  }

  getUserTeamIds(userId: string): MaybePromise<readonly string[]> {
    return itemsOf(this.#userTeams, userId, NONE);
  }

  async upsertUser(user: UserRecord): Promise<void> {
    try {
      await this.inner.upsertUser(user);
    } finally {
      this.#users.invalidate(user.user_id);
    }
  }

  async upsertTeam(team: TeamRecord): Promise<void> {
    try {
      await this.inner.upsertTeam(team);
    } finally {
      this.#teams.invalidate(team.team_id);
      this.#teamsByAlias.clear();
    }
  }

  async addTeamMember(teamId: string, userId: string): Promise<void> {
    try {
      await this.inner.addTeamMember(teamId, userId);
    } finally {
      this.#userTeams.invalidate(userId);
    }
  }

  async removeTeamMember(teamId: string, userId: string): Promise<void> {
    try {
      await this.inner.removeTeamMember(teamId, userId);
    } finally {
      this.#userTeams.invalidate(userId);
    }
  }

  findKeyMapping(claimName: string, claimValue: string): Promise<KeyMappingRecord | undefined> {
    return Promise.resolve(this.inner.findKeyMapping(claimName, claimValue));
  }

  /** Forgets every lookup: the next call reads the directory again. */
  clear(): void {
    for (const cache of [
      this.#teams,
      this.#teamsByAlias,
      this.#organizationsByAlias,
      this.#users,
      this.#userTeams,
    ]) {
      cache.clear();
    }
  }
}
