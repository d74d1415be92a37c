import { nextPeriodEnd } from '../auth/duration.js';
import type { Queryable } from './database.js';

/** Who a budget belongs to (CONTRACT 6.6): each level is charged for a call and may refuse it. */
export type BudgetLevel = 'key' | 'team' | 'user' | 'organization' | 'customer';

/** Each level's table and id column; whether it has a `soft_budget`. */
const TABLES: Readonly<Record<BudgetLevel, { table: string; id: string; soft: boolean }>> = {
  key: { table: 'svc_keys', id: 'key_hash', soft: true },
  team: { table: 'svc_teams', id: 'team_id', soft: true },
  user: { table: 'svc_users', id: 'user_id', soft: false },
  organization: { table: 'svc_organizations', id: 'organization_id', soft: false },
  customer: { table: 'svc_customers', id: 'user_id', soft: false },
};

/** A level's budget as stored: what it has spent in the running period, and when that period ends. */
export interface StoredPeriod {
  spend: number;
  budget_reset_at: Date | null;
  /** Whether this call started the new period (several processes may try; one does). */
  reset: boolean;
}

/**
 * Starts a level's next budget period when the running one has ended: its `spend` back to 0 (its
 * `soft_budget` alert armed again) and `budget_reset_at` moved on by whole `budget_duration`s past
 * now. The database decides: the UPDATE applies only while the stored period end is past, so of
 * several processes renewing at once one resets and the others find the new period. Returns the
 * level's budget as stored afterwards; undefined when there is no such row.
 *
 * @example
 * const period = await renewBudgetPeriod(db, 'team', 'ads', Date.now());
 * // { spend: 0, budget_reset_at: 2026-12-01T00:00:00.000Z, reset: true }
 */
export async function renewBudgetPeriod(
  db: Queryable,
  level: BudgetLevel,
  id: string,
  nowMs: number,
): Promise<StoredPeriod | undefined> {
  const { table, id: column, soft } = TABLES[level];
  const { rows } = await db.query<{
    spend: number;
    budget_duration: string | null;
    budget_reset_at: Date | null;
  }>(`SELECT spend, budget_duration, budget_reset_at FROM ${table} WHERE ${column} = $1`, [id]);
  const row = rows[0];
  if (!row) return undefined;
  const endsAt = row.budget_reset_at?.getTime();
  if (!row.budget_duration || endsAt === undefined || endsAt > nowMs) {
    return { spend: row.spend, budget_reset_at: row.budget_reset_at, reset: false };
  }
  const next = new Date(nextPeriodEnd(endsAt, row.budget_duration, nowMs));
  const renewed = await db.query<{ spend: number; budget_reset_at: Date }>(
    `UPDATE ${table} SET spend = 0, budget_reset_at = $2,${soft ? ' soft_budget_alerted = false,' : ''} updated_at = now()
WHERE ${column} = $1 AND budget_reset_at <= now() RETURNING spend, budget_reset_at`,
    [id, next],
  );
  if (renewed.rows[0]) return { ...renewed.rows[0], reset: true };
  // another process renewed it first (or the database's clock says the period has not ended yet)
  const again = await db.query<{ spend: number; budget_reset_at: Date | null }>(
    `SELECT spend, budget_reset_at FROM ${table} WHERE ${column} = $1`,
    [id],
  );
  return again.rows[0] && { ...again.rows[0], reset: false };
}

/**
 * Claims the `soft_budget` alert of a key's or team's running period: true for the one caller (of
 * every process) that claims it first, false once it is claimed or when there is no soft budget.
 */
export async function claimSoftBudgetAlert(
  db: Queryable,
  level: 'key' | 'team',
  id: string,
): Promise<boolean> {
  const { table, id: column } = TABLES[level];
  const { rows } = await db.query(
    `UPDATE ${table} SET soft_budget_alerted = true
WHERE ${column} = $1 AND soft_budget IS NOT NULL AND NOT soft_budget_alerted RETURNING ${column}`,
    [id],
  );
  return rows.length > 0;
}
