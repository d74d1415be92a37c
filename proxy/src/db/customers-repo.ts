import type { Queryable } from './database.js';
import { asDuplicateError } from './db-errors.js';

/** A customer to store: an end user, as a request's `user` field names it. */
export interface NewCustomer {
  user_id: string;
  /** Dollars. */
  max_budget?: number | null | undefined;
  /** How often the budget starts again (`30d`, `1mo`); null: never. */
  budget_duration?: string | null | undefined;
  /** When the running budget period ends (set with `budget_duration`). */
  budget_reset_at?: Date | null | undefined;
}

/** A stored customer, as read back. Unset fields are null. */
export interface CustomerRow {
  user_id: string;
  max_budget: number | null;
  /** Dollars spent in the running budget period by calls naming this customer. */
  spend: number;
  budget_duration: string | null;
  budget_reset_at: Date | null;
  blocked: boolean;
  created_at: Date;
  updated_at: Date;
}

const CUSTOMER_COLUMNS =
  'user_id, max_budget, spend, budget_duration, budget_reset_at, blocked, created_at, updated_at';

/**
 * Stores a new customer and returns it as stored (spend 0).
 * @throws DuplicateError (409) with `field` `user_id` when the customer exists.
 */
export async function insertCustomer(db: Queryable, customer: NewCustomer): Promise<CustomerRow> {
  try {
    const { rows } = await db.query<CustomerRow>(
      `INSERT INTO svc_customers (user_id, max_budget, budget_duration, budget_reset_at)
VALUES ($1, $2, $3, $4) RETURNING ${CUSTOMER_COLUMNS}`,
      [
        customer.user_id,
        customer.max_budget ?? null,
        customer.budget_duration ?? null,
        customer.budget_reset_at ?? null,
      ],
    );
    return rows[0]!;
  } catch (error) {
    throw asDuplicateError(error, 'customer') ?? error;
  }
}

/** The customer with this id, or undefined. */
export async function getCustomer(db: Queryable, userId: string): Promise<CustomerRow | undefined> {
  const { rows } = await db.query<CustomerRow>(
    `SELECT ${CUSTOMER_COLUMNS} FROM svc_customers WHERE user_id = $1`,
    [userId],
  );
  return rows[0];
}

/**
 * Blocks or unblocks these customers; returns the ids that exist, sorted. An id with no row is
 * created blocked (blocking an end user needs no `/customer/new` first); unblocking one is a no-op.
 */
export async function setCustomersBlocked(
  db: Queryable,
  userIds: readonly string[],
  blocked: boolean,
): Promise<string[]> {
  const { rows } = blocked
    ? await db.query<{ user_id: string }>(
        `INSERT INTO svc_customers (user_id, blocked) SELECT unnest($1::text[]), true
ON CONFLICT (user_id) DO UPDATE SET blocked = true, updated_at = now() RETURNING user_id`,
        [userIds],
      )
    : await db.query<{ user_id: string }>(
        `UPDATE svc_customers SET blocked = false, updated_at = now() WHERE user_id = ANY($1::text[])
RETURNING user_id`,
        [userIds],
      );
  return rows.map((r) => r.user_id).sort();
}
