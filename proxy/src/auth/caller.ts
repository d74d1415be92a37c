import type { AuthContext } from '@svc/router/jwt';

/** What the proxy knows of a virtual key once it is authenticated (never the key itself). */
export interface KeyIdentity {
  keyHash: string;
  keyAlias: string | null;
  /** Model groups the key may call; empty means every group. */
  models: readonly string[];
  teamId: string | null;
  userId: string | null;
  organizationId: string | null;
  /** Dollars; null means no budget. */
  maxBudget: number | null;
  /** Dollars spent in the running budget period, as last read from the database. */
  spend: number;
  /** How often the budget starts again (`30d`, `1mo`); null: never. */
  budgetDuration: string | null;
  /** When the running budget period ends; null: the budget never resets. */
  budgetResetAt: Date | null;
  /** Dollars; crossing it raises a `budget_alert`; null means none. */
  softBudget: number | null;
  rpmLimit: number | null;
  tpmLimit: number | null;
  expiresAt: Date | null;
  blocked: boolean;
  metadata: Record<string, unknown>;
}

/**
 * Who is calling: the master key (an admin), a virtual key (sent as such, or named by a JWT's key
 * mapping: then it is that key in every respect), or a JWT identity (`enable_jwt_auth`) whose context
 * says who it is (admin, team, user), what it may call and whom its spend is charged to. A key's
 * `teamModels` is its team's model list when that list restricts (not empty): the key may call only
 * what both lists allow.
 */
export type Caller =
  | { kind: 'master' }
  | { kind: 'key'; key: KeyIdentity; teamModels?: readonly string[] }
  | { kind: 'jwt'; auth: AuthContext };

/** Whether the caller is an admin: the master key, or a JWT the JWT module resolved as admin. */
export function isAdmin(caller: Caller): boolean {
  return caller.kind === 'master' || (caller.kind === 'jwt' && caller.auth.kind === 'admin');
}

/** The key hash a spend row names the caller by (null for the master key). */
export function callerKeyHash(caller: Caller): string | null {
  return caller.kind === 'key' ? caller.key.keyHash : null;
}
