import type { Queryable } from './database.js';
import { asDuplicateError } from './db-errors.js';

/** A user to store. */
export interface NewUser {
  user_id: string;
  /** `proxy_admin`, `internal_user` or `internal_user_view_only` (the route checks the value). */
  user_role?: string | null | undefined;
  user_email?: string | null | undefined;
  /** Dollars. */
  max_budget?: number | null | undefined;
  /** How often the budget starts again (`30d`, `1mo`); null: never. */
  budget_duration?: string | null | undefined;
  /** When the running budget period ends (set with `budget_duration`). */
  budget_reset_at?: Date | null | undefined;
  metadata?: Readonly<Record<string, unknown>> | undefined;
}

/** A stored user, as read back. Unset fields are null. */
export interface UserRow {
  user_id: string;
  user_role: string | null;
  user_email: string | null;
  max_budget: number | null;
  /** Dollars spent so far (charged by the spend writer). */
  spend: number;
  /** How often the budget starts again (`30d`, `1mo`); null: never. */
  budget_duration: string | null;
  /** When the running budget period ends: `spend` goes back to 0 then. */
  budget_reset_at: Date | null;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const USER_COLUMNS = `user_id, user_role, user_email, max_budget, spend, budget_duration, budget_reset_at, metadata,
  created_at, updated_at`;

/**
 * Stores a new user and returns it as stored (spend 0).
 * @throws DuplicateError (409) with `field` `user_id` when the id is taken.
 */
export async function insertUser(db: Queryable, user: NewUser): Promise<UserRow> {
  try {
    const { rows } = await db.query<UserRow>(
      `INSERT INTO svc_users (user_id, user_role, user_email, max_budget, metadata, budget_duration,
  budget_reset_at)
VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)
RETURNING ${USER_COLUMNS}`,
      [
        user.user_id,
        user.user_role ?? null,
        user.user_email ?? null,
        user.max_budget ?? null,
        JSON.stringify(user.metadata ?? {}),
        user.budget_duration ?? null,
        user.budget_reset_at ?? null,
      ],
    );
    return rows[0]!;
  } catch (error) {
    throw asDuplicateError(error, 'user') ?? error;
  }
}

/** The user with this id, or undefined. */
export async function getUser(db: Queryable, userId: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM svc_users WHERE user_id = $1`, [
    userId,
  ]);
  return rows[0];
}

/**
 * Creates the user, or sets the role and email given (a field left out, or null, keeps its value) on
 * the existing one: what role sync does on each authenticated JWT request. Returns the user as stored.
 */
export async function upsertUser(
  db: Queryable,
  user: Pick<NewUser, 'user_id' | 'user_role' | 'user_email'>,
): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `INSERT INTO svc_users (user_id, user_role, user_email) VALUES ($1, $2, $3)
ON CONFLICT (user_id) DO UPDATE SET
  user_role = COALESCE(EXCLUDED.user_role, svc_users.user_role),
  user_email = COALESCE(EXCLUDED.user_email, svc_users.user_email),
  updated_at = now()
RETURNING ${USER_COLUMNS}`,
    [user.user_id, user.user_role ?? null, user.user_email ?? null],
  );
  return rows[0]!;
}

/** Where `updateColumns` and `lockRow` find users. */
export const USERS_TABLE = { table: 'svc_users', idColumn: 'user_id', columns: USER_COLUMNS };

/** Deletes these users and their team memberships; returns the users deleted, as they were. */
export async function deleteUsers(db: Queryable, userIds: readonly string[]): Promise<UserRow[]> {
  await db.query('DELETE FROM svc_team_memberships WHERE user_id = ANY($1::text[])', [userIds]);
  const { rows } = await db.query<UserRow>(
    `DELETE FROM svc_users WHERE user_id = ANY($1::text[]) RETURNING ${USER_COLUMNS}`,
    [userIds],
  );
  return rows;
}
