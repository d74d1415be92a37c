import type {
  JwtAuthDeps,
  KeyMappingRecord,
  OrganizationRecord,
  TeamRecord,
  UserRecord,
  UserRole,
} from '@svc/router/jwt';
import type { Queryable } from '../db/database.js';
import { findKeyMapping, type KeyMappingRow } from '../db/jwt-key-mappings-repo.js';
import { addTeamMember, removeTeamMember, teamIdsOfUser } from '../db/memberships-repo.js';
import { findOrganizationsByAlias, type OrganizationRow } from '../db/organizations-repo.js';
import { findTeamsByAlias, getTeam, insertTeamIfMissing, type TeamRow } from '../db/teams-repo.js';
import { getUser, type UserRow, upsertUser } from '../db/users-repo.js';

const USER_ROLES: readonly string[] = ['proxy_admin', 'internal_user', 'internal_user_view_only'];

/**
 * The JWT module's directory ({@link JwtAuthDeps}) over the proxy's database: teams, users,
 * organizations, memberships and key mappings are the rows the management routes write. Every lookup
 * goes to the database (the JWT module caches key mappings itself). Mappings carry `key_hash`, never
 * the key, so a mapped request's context has `virtual_key_hash`.
 *
 * @example
 * const auth = createJwtAuth(settings, new DbJwtDirectory(db));
 */
export class DbJwtDirectory implements JwtAuthDeps {
  constructor(private readonly db: Queryable) {}

  async getTeam(teamId: string): Promise<TeamRecord | undefined> {
    const row = await getTeam(this.db, teamId);
    return row && teamRecord(row);
  }

  async findTeamsByAlias(alias: string): Promise<TeamRecord[]> {
    return (await findTeamsByAlias(this.db, alias)).map(teamRecord);
  }

  async findOrganizationsByAlias(alias: string): Promise<OrganizationRecord[]> {
    return (await findOrganizationsByAlias(this.db, alias)).map(organizationRecord);
  }

  async getUser(userId: string): Promise<UserRecord | undefined> {
    const row = await getUser(this.db, userId);
    return row && userRecord(row);
  }

  async upsertUser(user: UserRecord): Promise<void> {
    await upsertUser(this.db, user);
  }

  async upsertTeam(team: TeamRecord): Promise<void> {
    await insertTeamIfMissing(this.db, {
      team_id: team.team_id,
      team_alias: team.team_alias,
      organization_id: team.organization_id,
      models: team.models,
      blocked: team.blocked,
    });
  }

  getUserTeamIds(userId: string): Promise<string[]> {
    return teamIdsOfUser(this.db, userId);
  }

  async addTeamMember(teamId: string, userId: string): Promise<void> {
    await addTeamMember(this.db, teamId, userId);
  }

  async removeTeamMember(teamId: string, userId: string): Promise<void> {
    await removeTeamMember(this.db, teamId, userId);
  }

  async findKeyMapping(claimName: string, claimValue: string): Promise<KeyMappingRecord | undefined> {
    const row = await findKeyMapping(this.db, claimName, claimValue);
    return row && keyMappingRecord(row);
  }
}

// The JWT module's records leave unset fields out rather than null: copy only what is set.

function teamRecord(row: TeamRow): TeamRecord {
  return {
    team_id: row.team_id,
    ...(row.team_alias !== null && { team_alias: row.team_alias }),
    models: row.models,
    blocked: row.blocked,
    ...(row.organization_id !== null && { organization_id: row.organization_id }),
  };
}

function organizationRecord(row: OrganizationRow): OrganizationRecord {
  return {
    organization_id: row.organization_id,
    ...(row.organization_alias !== null && { organization_alias: row.organization_alias }),
  };
}

function userRecord(row: UserRow): UserRecord {
  return {
    user_id: row.user_id,
    // a role this version does not know is left out rather than trusted
    ...(row.user_role !== null &&
      USER_ROLES.includes(row.user_role) && { user_role: row.user_role as UserRole }),
    ...(row.user_email !== null && { user_email: row.user_email }),
  };
}

function keyMappingRecord(row: KeyMappingRow): KeyMappingRecord {
  return {
    id: row.id,
    jwt_claim_name: row.jwt_claim_name,
    jwt_claim_value: row.jwt_claim_value,
    key_hash: row.key_hash,
    ...(row.description !== null && { description: row.description }),
    is_active: row.is_active,
  };
}
