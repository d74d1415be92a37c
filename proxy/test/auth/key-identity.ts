import type { KeyIdentity } from '../../src/auth/caller.js';

/** A virtual key's identity as authentication gives it: no limits, not blocked, `overrides` on top. */
export function keyIdentity(overrides: Partial<KeyIdentity> = {}): KeyIdentity {
  return {
    keyHash: 'h',
    keyAlias: null,
    models: [],
    teamId: null,
    userId: null,
    organizationId: null,
    maxBudget: null,
    spend: 0,
    budgetDuration: null,
    budgetResetAt: null,
    softBudget: null,
    rpmLimit: null,
    tpmLimit: null,
    expiresAt: null,
    blocked: false,
    metadata: {},
    ...overrides,
  };
}
