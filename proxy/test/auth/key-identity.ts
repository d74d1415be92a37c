import type { KeyIdentity } from '../../src/auth/caller.js';
import type { TeamStatus } from '../../src/auth/team-cache.js';

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

/** A team's status as authentication reads it: open to every model, no limits, `overrides` on top. */
export function teamStatus(overrides: Partial<TeamStatus> = {}): TeamStatus {
  return {
    blocked: false,
    models: [],
    maxBudget: null,
    spend: 0,
    budgetResetAt: null,
    softBudget: null,
    organizationId: null,
    rpmLimit: null,
    tpmLimit: null,
    ...overrides,
  };
}
