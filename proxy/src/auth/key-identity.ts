import type { KeyRecord } from '../db/keys-repo.js';
import type { KeyIdentity } from './caller.js';

/** The auth view of a stored key. */
export function identityOf(record: KeyRecord): KeyIdentity {
  return {
    keyHash: record.key_hash,
    keyAlias: record.key_alias,
    models: record.models,
    teamId: record.team_id,
    userId: record.user_id,
    organizationId: record.organization_id,
    maxBudget: record.max_budget,
    spend: record.spend,
    budgetDuration: record.budget_duration,
    budgetResetAt: record.budget_reset_at,
    softBudget: record.soft_budget,
    rpmLimit: record.rpm_limit,
    tpmLimit: record.tpm_limit,
    expiresAt: record.expires_at,
    blocked: record.blocked,
    metadata: record.metadata,
  };
}
