import type { JwtAuthDeps, KeyMappingRecord, OrganizationRecord, TeamRecord, UserRecord } from './types.js';

/** Records to start a {@link MemoryJwtDirectory} with. */
export interface MemoryJwtDirectorySeed {
  teams?: readonly TeamRecord[];
  users?: readonly UserRecord[];
  organizations?: readonly OrganizationRecord[];
  keyMappings?: readonly KeyMappingRecord[];
  /** `[team_id, user_id]` pairs. */
  memberships?: readonly (readonly [string, string])[];
}

/**
 * {@link JwtAuthDeps} in memory, for tests and small servers: every lookup answers synchronously. Its
 * maps are public so a test (or an admin endpoint of a small server) can read and change them.
 *
 * @example
 * const directory = new MemoryJwtDirectory({ teams: [{ team_id: 'search', models: ['gpt-4o'] }] });
 * const auth = createJwtAuth(settings, directory);
 */
export class MemoryJwtDirectory implements JwtAuthDeps {
  readonly teams = new Map<string, TeamRecord>();
  readonly users = new Map<string, UserRecord>();
  readonly organizations = new Map<string, OrganizationRecord>();
  readonly keyMappings = new Map<string, KeyMappingRecord>();
  /** user id -> team ids. */
  readonly memberships = new Map<string, Set<string>>();

  constructor(seed: MemoryJwtDirectorySeed = {}) {
    for (const team of seed.teams ?? []) this.teams.set(team.team_id, { ...team });
    for (const user of seed.users ?? []) this.users.set(user.user_id, { ...user });
    for (const org of seed.organizations ?? []) this.organizations.set(org.organization_id, { ...org });
    for (const mapping of seed.keyMappings ?? []) this.keyMappings.set(mapping.id, { ...mapping });
    for (const [teamId, userId] of seed.memberships ?? []) this.addTeamMember(teamId, userId);
  }

  getTeam(teamId: string): TeamRecord | undefined {
    return this.teams.get(teamId);
  }

  findTeamsByAlias(alias: string): TeamRecord[] {
    return [...this.teams.values()].filter((t) => t.team_alias === alias);
  }

  findOrganizationsByAlias(alias: string): OrganizationRecord[] {
    return [...this.organizations.values()].filter((o) => o.organization_alias === alias);
  }

  getUser(userId: string): UserRecord | undefined {
    return this.users.get(userId);
  }

  upsertUser(user: UserRecord): void {
    const current = this.users.get(user.user_id);
    const next: UserRecord = { ...current, user_id: user.user_id };
    if (user.user_role !== undefined) next.user_role = user.user_role;
    if (user.user_email !== undefined) next.user_email = user.user_email;
    this.users.set(user.user_id, next);
  }

  upsertTeam(team: TeamRecord): void {
    if (!this.teams.has(team.team_id)) this.teams.set(team.team_id, { ...team });
  }

  getUserTeamIds(userId: string): string[] {
    return [...(this.memberships.get(userId) ?? [])];
  }

  addTeamMember(teamId: string, userId: string): void {
    let teams = this.memberships.get(userId);
    if (!teams) {
      teams = new Set();
      this.memberships.set(userId, teams);
    }
    teams.add(teamId);
  }

  removeTeamMember(teamId: string, userId: string): void {
    this.memberships.get(userId)?.delete(teamId);
  }

  findKeyMapping(claimName: string, claimValue: string): KeyMappingRecord | undefined {
    for (const mapping of this.keyMappings.values()) {
      if (mapping.jwt_claim_name === claimName && mapping.jwt_claim_value === claimValue) return mapping;
    }
    return undefined;
  }
}
