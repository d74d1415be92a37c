import type { TeamRow } from '../db/teams-repo.js';
import { LookupCache } from './lookup-cache.js';

/** What the call path needs of a team: whether it is blocked, its model list, budget, limits, organization. */
export interface TeamStatus {
  blocked: boolean;
  /** Model groups (or patterns such as `gpt-*`) its keys may call; empty means every group. */
  models: readonly string[];
  /** Dollars; null means no budget. */
  maxBudget: number | null;
  /** Dollars spent in the running budget period by calls charged to the team, as last read. */
  spend: number;
  /** When the running budget period ends; null: the budget never resets. */
  budgetResetAt: Date | null;
  /** Dollars; crossing it raises a `budget_alert`; null means none. */
  softBudget: number | null;
  /** Its organization, charged for its keys' calls when the key names none. */
  organizationId: string | null;
  rpmLimit: number | null;
  tpmLimit: number | null;
}

/** Reads one team's status from the database; undefined when there is no such team. */
export type TeamLookup = (teamId: string) => Promise<TeamStatus | undefined>;

/**
 * Teams by id (`key_cache_ttl`), so that checking a caller's team on every call costs no database round
 * trip once warm. Blocking or unblocking through this process applies at once.
 */
export class TeamCache extends LookupCache<TeamStatus> {}

/** A team row as the call path sees it. */
export function teamStatusOf(team: TeamRow): TeamStatus {
  return {
    blocked: team.blocked,
    models: team.models,
    maxBudget: team.max_budget,
    spend: team.spend,
    budgetResetAt: team.budget_reset_at,
    softBudget: team.soft_budget,
    organizationId: team.organization_id,
    rpmLimit: team.rpm_limit,
    tpmLimit: team.tpm_limit,
  };
}
