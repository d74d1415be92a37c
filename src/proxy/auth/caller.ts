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
  /** Dollars spent, as last read from the database. */
  spend: number;
  rpmLimit: number | null;
  tpmLimit: number | null;
  expiresAt: Date | null;
  blocked: boolean;
  metadata: Record<string, unknown>;
}

/** Who is calling: the master key (an admin) or a virtual key. */
export type Caller = { kind: 'master' } | { kind: 'key'; key: KeyIdentity };

/** The key hash a spend row names the caller by (null for the master key). */
export function callerKeyHash(caller: Caller): string | null {
  return caller.kind === 'key' ? caller.key.keyHash : null;
}
