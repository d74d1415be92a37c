import type { KeyIdentity } from '../auth/caller.js';
import type { TeamStatus } from '../auth/team-cache.js';

/**
 * Someone a call is counted against: the calling virtual key, and the team the call is charged to.
 * Each has its own budget and per-minute limits; a call is admitted only when every one of them allows it.
 */
export interface LimitedOwner {
  /** Where its counts live: the key's hash, or `team:<team_id>`. */
  id: string;
  /** How refusals name it: `this key`, ``team `ads` ``. */
  label: string;
  /** Dollars; null means no budget. */
  maxBudget: number | null;
  /** Dollars spent, as last read from the database. */
  spend: number;
  rpmLimit: number | null;
  tpmLimit: number | null;
}

export function keyOwner(key: KeyIdentity): LimitedOwner {
  return {
    id: key.keyHash,
    label: 'this key',
    maxBudget: key.maxBudget,
    spend: key.spend,
    rpmLimit: key.rpmLimit,
    tpmLimit: key.tpmLimit,
  };
}

export function teamOwner(teamId: string, team: TeamStatus): LimitedOwner {
  return {
    id: `team:${teamId}`,
    label: `team \`${teamId}\``,
    maxBudget: team.maxBudget,
    spend: team.spend,
    rpmLimit: team.rpmLimit,
    tpmLimit: team.tpmLimit,
  };
}

/** Whether an owner has anything to enforce (most keys do not: their calls skip the gates). */
export function isLimited(owner: LimitedOwner): boolean {
  return owner.maxBudget !== null || owner.rpmLimit !== null || owner.tpmLimit !== null;
}
