import type { Queryable } from './database.js';
import { asDuplicateError } from './db-errors.js';

/** A team to store. */
export interface NewTeam {
  team_id: string;
  /** Unique among teams when set. */
  team_alias?: string | null | undefined;
  organization_id?: string | null | undefined;
  /** Models the team may call; empty means every model. */
  models?: readonly string[] | undefined;
  /** Dollars. */
  max_budget?: number | null | undefined;
  /** How often the budget starts again (`30d`, `1mo`); null: never. */
  budget_duration?: string | null | undefined;
  /** When the running budget period ends (set with `budget_duration`). */
  budget_reset_at?: Date | null | undefined;
  /** Dollars; crossing it raises one `budget_alert` per budget period. */
  soft_budget?: number | null | undefined;
  rpm_limit?: number | null | undefined;
  tpm_limit?: number | null | undefined;
  metadata?: Readonly<Record<string, unknown>> | undefined;
  blocked?: boolean | undefined;
}

/** A stored team, as read back. Unset fields are null. */
export interface TeamRow {
  team_id: string;
  team_alias: string | null;
  organization_id: string | null;
  models: string[];
  blocked: boolean;
  max_budget: number | null;
  /** Dollars spent so far by every call charged to the team. */
  spend: number;
  /** How often the budget starts again (`30d`, `1mo`); null: never. */
  budget_duration: string | null;
  /** When the running budget period ends: `spend` goes back to 0 then. */
  budget_reset_at: Date | null;
  soft_budget: number | null;
  rpm_limit: number | null;
  tpm_limit: number | null;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const TEAM_COLUMNS = `team_id, team_alias, organization_id, models, blocked, max_budget, spend, rpm_limit,
  tpm_limit, budget_duration, budget_reset_at, soft_budget, metadata, created_at, updated_at`;

const INSERT = `INSERT INTO svc_teams (team_id, team_alias, organization_id, models, max_budget, rpm_limit,
  tpm_limit, metadata, blocked, budget_duration, budget_reset_at, soft_budget)
VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8::jsonb, $9, $10, $11, $12)`;

function insertParams(team: NewTeam): unknown[] {
  return [
    team.team_id,
    team.team_alias ?? null,
    team.organization_id ?? null,
    JSON.stringify(team.models ?? []),
    team.max_budget ?? null,
    team.rpm_limit ?? null,
    team.tpm_limit ?? null,
    JSON.stringify(team.metadata ?? {}),
    team.blocked ?? false,
    team.budget_duration ?? null,
    team.budget_reset_at ?? null,
    team.soft_budget ?? null,
  ];
}

/**
 * Stores a new team and returns it as stored (spend 0).
 * @throws DuplicateError (409) with `field` `team_alias` (or `team_id`) when the value is taken.
 */
export async function insertTeam(db: Queryable, team: NewTeam): Promise<TeamRow> {
  try {
    const { rows } = await db.query<TeamRow>(`${INSERT} RETURNING ${TEAM_COLUMNS}`, insertParams(team));
    return rows[0]!;
  } catch (error) {
    throw asDuplicateError(error, 'team') ?? error;
  }
}

/**
 * Stores the team unless one with its id (or alias) exists, which is kept as it is (JWT
 * `team_id_upsert`). Resolves true when it was created.
 */
export async function insertTeamIfMissing(db: Queryable, team: NewTeam): Promise<boolean> {
  const { rows } = await db.query(`${INSERT} ON CONFLICT DO NOTHING RETURNING team_id`, insertParams(team));
  return rows.length > 0;
}

/** The team with this id, or undefined. */
export async function getTeam(db: Queryable, teamId: string): Promise<TeamRow | undefined> {
  const { rows } = await db.query<TeamRow>(`SELECT ${TEAM_COLUMNS} FROM svc_teams WHERE team_id = $1`, [
    teamId,
  ]);
  return rows[0];
}

/** Every team with this alias: none or one, as the alias is unique. */
export async function findTeamsByAlias(db: Queryable, alias: string): Promise<TeamRow[]> {
  const { rows } = await db.query<TeamRow>(`SELECT ${TEAM_COLUMNS} FROM svc_teams WHERE team_alias = $1`, [
    alias,
  ]);
  return rows;
}

/** Blocks or unblocks the team; returns it as stored, or undefined when there is no such team. */
export async function setTeamBlocked(
  db: Queryable,
  teamId: string,
  blocked: boolean,
): Promise<TeamRow | undefined> {
  const { rows } = await db.query<TeamRow>(
    `UPDATE svc_teams SET blocked = $2, updated_at = now() WHERE team_id = $1 RETURNING ${TEAM_COLUMNS}`,
    [teamId, blocked],
  );
  return rows[0];
}

/** The ids of the organization's teams, sorted. */
export async function teamIdsOfOrganization(db: Queryable, organizationId: string): Promise<string[]> {
  const { rows } = await db.query<{ team_id: string }>(
    'SELECT team_id FROM svc_teams WHERE organization_id = $1 ORDER BY team_id',
    [organizationId],
  );
  return rows.map((r) => r.team_id);
}

/** Every team with its members' ids, by alias (then id); members come in the same query. */
export async function listTeamsWithMembers(db: Queryable): Promise<Array<TeamRow & { members: string[] }>> {
  const { rows } = await db.query<TeamRow & { members: string[] | null }>(
    `SELECT ${TEAM_COLUMNS.split(',')
      .map((c) => `t.${c.trim()}`)
      .join(', ')},
  (SELECT json_agg(m.user_id ORDER BY m.user_id) FROM svc_team_memberships m WHERE m.team_id = t.team_id) AS members
FROM svc_teams t ORDER BY t.team_alias NULLS LAST, t.team_id`,
  );
  return rows.map((row) => ({ ...row, members: row.members ?? [] }));
}

/** Where `updateColumns` and `lockRow` find teams. */
export const TEAMS_TABLE = { table: 'svc_teams', idColumn: 'team_id', columns: TEAM_COLUMNS };

/** Deletes these teams (their memberships go with them); returns the teams deleted, as they were. */
export async function deleteTeams(db: Queryable, teamIds: readonly string[]): Promise<TeamRow[]> {
  const { rows } = await db.query<TeamRow>(
    `DELETE FROM svc_teams WHERE team_id = ANY($1::text[]) RETURNING ${TEAM_COLUMNS}`,
    [teamIds],
  );
  return rows;
}
