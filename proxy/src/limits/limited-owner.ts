import type { KeyIdentity } from '../auth/caller.js';
import type { TeamStatus } from '../auth/team-cache.js';
import type { BudgetLevel } from '../db/budget-periods-repo.js';

/**
 * Someone a call is counted against (CONTRACT 6.6): the calling key, its team, its user, the
 * organization of the key or of its team, and the customer the request names. Each has its own budget
 * (and keys and teams their per-minute limits); a call is admitted only when every one allows it.
 */
export interface LimitedOwner {
  /** Where its counts live: the key's hash, `team:<id>`, `user:<id>`, `organization:<id>`, `customer:<id>`. */
  id: string;
  level: BudgetLevel;
  /** Its row's id in its table (the key's hash for a key). */
  rowId: string;
  /** How refusals name it: ``key `ci` ``, ``team `ads` ``, ``customer `end-7` ``. */
  label: string;
  /** Dollars; null means no budget. */
  maxBudget: number | null;
  /** Dollars spent in the running budget period, as last read from the database. */
  spend: number;
  /** Dollars; crossing it raises a `budget_alert` (keys and teams); null means none. */
  softBudget: number | null;
  /** When the running budget period ends (epoch ms); null: the budget never resets. */
  budgetResetAt: number | null;
  rpmLimit: number | null;
  tpmLimit: number | null;
}

/** What the call path knows of a user's, organization's or customer's budget. */
export interface BudgetStatus {
  /** Dollars; null means no budget. */
  maxBudget: number | null;
  /** Dollars spent in the running budget period, as last read from the database. */
  spend: number;
  /** When the running budget period ends; null: never. */
  budgetResetAt: Date | null;
  /** A customer that is blocked (403 `customer_blocked`); false for users and organizations. */
  blocked: boolean;
}

/** A key as refusals name it: by its alias, else by the first 8 characters of its hash. */
export function keyLabel(key: Pick<KeyIdentity, 'keyAlias' | 'keyHash'>): string {
  return `key \`${key.keyAlias ?? key.keyHash.slice(0, 8)}\``;
}

export function keyOwner(key: KeyIdentity): LimitedOwner {
  return {
    id: key.keyHash,
    level: 'key',
    rowId: key.keyHash,
    label: keyLabel(key),
    maxBudget: key.maxBudget,
    spend: key.spend,
    softBudget: key.softBudget,
    budgetResetAt: key.budgetResetAt?.getTime() ?? null,
    rpmLimit: key.rpmLimit,
    tpmLimit: key.tpmLimit,
  };
}

export function teamOwner(teamId: string, team: TeamStatus): LimitedOwner {
  return {
    id: `team:${teamId}`,
    level: 'team',
    rowId: teamId,
    label: `team \`${teamId}\``,
    maxBudget: team.maxBudget,
    spend: team.spend,
    softBudget: team.softBudget,
    budgetResetAt: team.budgetResetAt?.getTime() ?? null,
    rpmLimit: team.rpmLimit,
    tpmLimit: team.tpmLimit,
  };
}

/** A user, organization or customer: a budget, no per-minute limits. */
export function budgetOwner(
  level: 'user' | 'organization' | 'customer',
  id: string,
  status: BudgetStatus,
): LimitedOwner {
  return {
    id: `${level}:${id}`,
    level,
    rowId: id,
    label: `${level} \`${id}\``,
    maxBudget: status.maxBudget,
    spend: status.spend,
    softBudget: null,
    budgetResetAt: status.budgetResetAt?.getTime() ?? null,
    rpmLimit: null,
    tpmLimit: null,
  };
}

/** Whether an owner has anything to enforce (most keys do not: their calls skip the gates). */
export function isLimited(owner: LimitedOwner): boolean {
  return (
    owner.maxBudget !== null ||
    owner.softBudget !== null ||
    owner.rpmLimit !== null ||
    owner.tpmLimit !== null
  );
}
