import type { Caller } from '../auth/caller.js';
import { checkModelAccess } from '../auth/model-access.js';
import type { TeamCache } from '../auth/team-cache.js';
import { type CallFacts, CallLedger } from '../spend/call-ledger.js';
import type { SpendSink } from '../spend/spend-entry.js';
import type { BudgetGate, BudgetReservation } from './budget-gate.js';
import { isLimited, keyOwner, type LimitedOwner, teamOwner } from './limited-owner.js';
import type { RateLimits } from './rate-limits.js';

/** Lets a call through the caller's model list, rate limits and budget, and opens its ledger. */
export type Admit = (caller: Caller, facts: CallFacts, signal: AbortSignal) => Promise<CallLedger>;

const NONE: readonly LimitedOwner[] = Object.freeze([]);

/** Builds the admission step from the proxy's limits, its team lookups and its spend sink. */
export function createAdmission(deps: {
  budgets: BudgetGate;
  limits: RateLimits;
  teams: TeamCache;
  sink: SpendSink;
  now: () => number;
}): Admit {
  const { budgets, limits, teams, sink, now } = deps;

  /** The key and the team the call is charged to, those of them with a budget or a limit. */
  const ownersOf = async (caller: Caller): Promise<readonly LimitedOwner[]> => {
    if (caller.kind === 'master') return NONE;
    const teamId = caller.kind === 'key' ? caller.key.teamId : (caller.auth.team_id ?? null);
    const key = caller.kind === 'key' ? keyOwner(caller.key) : undefined;
    const team = teamId === null ? undefined : await teams.get(teamId);
    const owners: LimitedOwner[] = [];
    if (key && isLimited(key)) owners.push(key);
    if (team) {
      const owner = teamOwner(teamId!, team);
      if (isLimited(owner)) owners.push(owner);
    }
    return owners;
  };

  return async (caller, facts, signal) => {
    // the key's, its team's (authentication brought it) or the token's model lists
    checkModelAccess(caller, facts.model);
    const owners = await ownersOf(caller);
    const reservations: BudgetReservation[] = [];
    try {
      for (const owner of owners) await limits.admit(owner);
      for (const owner of owners) reservations.push(await budgets.admit(owner, signal));
    } catch (error) {
      for (const reservation of reservations) reservation.settle(0);
      throw error;
    }
    return new CallLedger({ owners, reservations, limits, sink, now, caller }, facts);
  };
}
