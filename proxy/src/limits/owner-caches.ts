import { LookupCache } from '../auth/lookup-cache.js';
import { getCustomer } from '../db/customers-repo.js';
import type { Queryable } from '../db/database.js';
import { getOrganization } from '../db/organizations-repo.js';
import { MAX_OWNER_ID_LENGTH } from '../db/owner-id.js';
import { getUser } from '../db/users-repo.js';
import type { BudgetStatus } from './limited-owner.js';

/**
 * The users, organizations and customers calls are charged to, by id (`key_cache_ttl`), as the call
 * path reads their budgets: once warm, no database round trip per call. An id with no row is
 * remembered too (most end users named by `user` have none).
 */
export class OwnerCaches {
  readonly users: LookupCache<BudgetStatus>;
  readonly organizations: LookupCache<BudgetStatus>;
  readonly customers: LookupCache<BudgetStatus>;

  constructor(db: Queryable, options: { ttlMs: number; onInvalidate?: (id: string) => void }) {
    const status = (row: {
      max_budget: number | null;
      spend: number;
      budget_reset_at: Date | null;
      blocked?: boolean;
    }): BudgetStatus => ({
      maxBudget: row.max_budget,
      spend: row.spend,
      budgetResetAt: row.budget_reset_at,
      blocked: row.blocked ?? false,
    });
    const cache = (
      read: (id: string) => Promise<Parameters<typeof status>[0] | undefined>,
      maxIdLength?: number,
    ) =>
      new LookupCache<BudgetStatus>(
        async (id) => {
          const row = await read(id);
          return row && status(row);
        },
        { ...options, maxIdLength },
      );
    this.users = cache((id) => getUser(db, id));
    this.organizations = cache((id) => getOrganization(db, id));
    // the request's `user` names the customer: caller input of any length, and no customer's id is
    // longer than the management API lets one be made with
    this.customers = cache((id) => getCustomer(db, id), MAX_OWNER_ID_LENGTH);
  }

  /** Forgets every entry (something changed in another process, or a management route ran here). */
  clear(): void {
    this.users.clear();
    this.organizations.clear();
    this.customers.clear();
  }
}
