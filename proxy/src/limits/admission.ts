import { type AccessGroups, type CallSignal, isPromise } from '@svc/router';
import type { Caller } from '../auth/caller.js';
import { checkModelAccess } from '../auth/model-access.js';
import type { TeamCache } from '../auth/team-cache.js';
import { ProxyError } from '../http/proxy-error.js';
import { type CallFacts, CallLedger, chargedTo } from '../spend/call-ledger.js';
import type { SpendSink } from '../spend/spend-entry.js';
import type { BudgetGate, BudgetReservation } from './budget-gate.js';
import type { BudgetPeriods } from './budget-periods.js';
import { budgetOwner, isLimited, keyOwner, type LimitedOwner, teamOwner } from './limited-owner.js';
import type { OwnerCaches } from './owner-caches.js';
import type { RateLimits } from './rate-limits.js';

/** Lets a call through the caller's model list, rate limits and budget, and opens its ledger. */
export type Admit = (caller: Caller, facts: CallFacts, signal: CallSignal) => Promise<CallLedger>;

/** Whom a call is charged to besides its key: the owners with something to enforce, and the team's organization. */
interface Charged {
  owners: LimitedOwner[];
  /** The organization of the key's team, charged when the key names none. */
  teamOrganizationId: string | null;
}

/** Builds the admission step from the proxy's limits, its owner lookups and its spend sink. */
export function createAdmission(deps: {
  budgets: BudgetGate;
  limits: RateLimits;
  teams: TeamCache;
  /** Users, organizations and customers; without them only keys and teams are enforced. */
  owners?: OwnerCaches | undefined;
  /** Budget periods; without them budgets never reset. */
  periods?: BudgetPeriods | undefined;
  sink: SpendSink;
  now: () => number;
  /** The router's access groups (`router.getAccessGroups()`), which a model list may name. */
  accessGroups?: () => AccessGroups;
  /** The wildcard `model_name` serving a model (`router.wildcardFor`): a list naming it allows the model. */
  wildcardFor?: (model: string) => string | undefined;
}): Admit {
  const { budgets, limits, teams, owners: caches, periods, sink, now, accessGroups, wildcardFor } = deps;

  /**
   * The key, its team, its user, the organization of the key or of its team, and the customer the
   * call names (CONTRACT 6.6): those of them with a budget or a limit. Lookups run together; an
   * id absent from the call costs nothing.
   */
  const chargedOf = (caller: Caller, endUser: string | null): Charged | Promise<Charged> => {
    const who = chargedTo(caller, endUser);
    const key = caller.kind === 'key' ? keyOwner(caller.key) : undefined;
    const teamId = who.team_id ?? null;
    const userId = who.user_id ?? null;
    const customerId = who.end_user ?? null;
    // a key with none of them (the common case) is its own only owner, at no lookup's cost
    if (teamId === null && userId === null && customerId === null && who.organization_id == null)
      return { owners: key && isLimited(key) ? [key] : [], teamOrganizationId: null };
    return lookUp(key, teamId, userId, customerId, who.organization_id ?? null);
  };

  const lookUp = async (
    key: LimitedOwner | undefined,
    teamId: string | null,
    userId: string | null,
    customerId: string | null,
    keyOrganizationId: string | null,
  ): Promise<Charged> => {
    const [team, user, customer] = await Promise.all([
      teamId === null ? undefined : teams.get(teamId),
      userId === null || !caches ? undefined : caches.users.get(userId),
      customerId === null || !caches ? undefined : caches.customers.get(customerId),
    ]);
    if (customer?.blocked) {
      throw new ProxyError(403, 'customer_blocked', `The customer \`${customerId}\` is blocked.`);
    }
    const teamOrganizationId = team?.organizationId ?? null;
    const organizationId = keyOrganizationId ?? teamOrganizationId;
    const organization =
      organizationId === null || !caches ? undefined : await caches.organizations.get(organizationId);
    const owners: LimitedOwner[] = [];
    const add = (owner: LimitedOwner | undefined) => {
      if (owner && isLimited(owner)) owners.push(owner);
    };
    add(key);
    if (team && teamId !== null) add(teamOwner(teamId, team));
    if (user && userId !== null) add(budgetOwner('user', userId, user));
    if (organization && organizationId !== null)
      add(budgetOwner('organization', organizationId, organization));
    if (customer && customerId !== null) add(budgetOwner('customer', customerId, customer));
    return { owners, teamOrganizationId };
  };

  return async (caller, facts, signal) => {
    // the key's, its team's (authentication brought it) or the token's model lists
    checkModelAccess(caller, facts.model, accessGroups?.(), wildcardFor?.(facts.model));
    const found = chargedOf(caller, facts.endUser);
    const charged = isPromise(found) ? await found : found;
    const current = periods ? currentPeriods(periods, charged.owners) : charged.owners;
    const owners = isPromise(current) ? await current : current;
    const reservations: BudgetReservation[] = [];
    // each step awaits only when it has something to wait for: an await costs a turn of jobs
    try {
      for (const owner of owners) if (limits.applies(owner)) await limits.admit(owner);
      for (const owner of owners)
        reservations.push(budgets.tryAdmit(owner) ?? (await budgets.admit(owner, signal)));
    } catch (error) {
      for (const reservation of reservations) reservation.settle(0);
      throw error;
    }
    return new CallLedger(
      { owners, reservations, limits, sink, now, caller, teamOrganizationId: charged.teamOrganizationId },
      facts,
    );
  };
}

/** The owners as of their current budget period; a promise only when one's period must be renewed. */
function currentPeriods(
  periods: BudgetPeriods,
  owners: LimitedOwner[],
): LimitedOwner[] | Promise<LimitedOwner[]> {
  const current = owners.map((o) => periods.current(o));
  return current.some(isPromise) ? Promise.all(current) : (current as LimitedOwner[]);
}
