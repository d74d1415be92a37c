import type { Queryable } from './database.js';

/**
 * Makes the user a member of the team (already one: nothing changes). The team must exist (the
 * table's foreign key refuses it otherwise); the user need not (a JWT identity may have no row).
 */
export async function addTeamMember(db: Queryable, teamId: string, userId: string): Promise<void> {
  await db.query(
    'INSERT INTO svc_team_memberships (team_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [teamId, userId],
  );
}

/** Ends the user's membership of the team; resolves false when there was none. */
export async function removeTeamMember(db: Queryable, teamId: string, userId: string): Promise<boolean> {
  const { rows } = await db.query(
    'DELETE FROM svc_team_memberships WHERE team_id = $1 AND user_id = $2 RETURNING team_id',
    [teamId, userId],
  );
  return rows.length > 0;
}

/** The ids of the teams the user belongs to, sorted. */
export async function teamIdsOfUser(db: Queryable, userId: string): Promise<string[]> {
  const { rows } = await db.query<{ team_id: string }>(
    'SELECT team_id FROM svc_team_memberships WHERE user_id = $1 ORDER BY team_id',
    [userId],
  );
  return rows.map((r) => r.team_id);
}

/** The ids of the team's members, sorted. */
export async function userIdsOfTeam(db: Queryable, teamId: string): Promise<string[]> {
  const { rows } = await db.query<{ user_id: string }>(
    'SELECT user_id FROM svc_team_memberships WHERE team_id = $1 ORDER BY user_id',
    [teamId],
  );
  return rows.map((r) => r.user_id);
}
