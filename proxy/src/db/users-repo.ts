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
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const USER_COLUMNS = 'user_id, user_role, user_email, max_budget, spend, metadata, created_at, updated_at';

/**
 * Stores a new user and returns it as stored (spend 0).
 * @throws DuplicateError (409) with `field` `user_id` when the id is taken.
 */
export async function insertUser(db: Queryable, user: NewUser): Promise<UserRow> {
  try {
    const { rows } = await db.query<UserRow>(
      `INSERT INTO svc_users (user_id, user_role, user_email, max_budget, metadata)
VALUES ($1, $2, $3, $4, $5::jsonb)
RETURNING ${USER_COLUMNS}`,
      [
        user.user_id,
        user.user_role ?? null,
        user.user_email ?? null,
        user.max_budget ?? null,
        JSON.stringify(user.metadata ?? {}),
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
