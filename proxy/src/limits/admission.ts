import { type AccessGroups, type CallSignal, isPromise } from '@svc/router';
import type { Caller } from '../auth/caller.js';
import { checkModelAccess } from '../auth/model-access.js';
import type { TeamCache, TeamStatus } from '../auth/team-cache.js';
import { ProxyError } from '../http/proxy-error.js';
import { type CallFacts, CallLedger, chargedTo } from '../spend/call-ledger.js';
import type { SpendSink } from '../spend/spend-entry.js';
import type { BudgetGate, BudgetReservation } from './budget-gate.js';
import type { BudgetPeriods } from './budget-periods.js';
import {
  type BudgetStatus,
  budgetOwner,
  isLimited,
  keyOwner,
  type LimitedOwner,
  teamOwner,
} from './limited-owner.js';
import type { OwnerCaches } from './owner-caches.js';
import type { RateLimits } from './rate-limits.js';

/**
 * Lets a call through the caller's model list, rate limits and budget, and opens its ledger: at once
 * when nothing must be waited for (its owners in memory, no rate limit, budgets with room), else a
 * promise. A refusal is thrown or rejected: await what it returns.
 */
export type Admit = (
  caller: Caller,
  facts: CallFacts,
  signal: CallSignal,
) => CallLedger | Promise<CallLedger>;

/** Whom a call is charged to besides its key: the owners with something to enforce, and the team's organization. */
interface Charged {
  owners: LimitedOwner[];
  /** The organization of the key's team, charged when the key names none. */
  teamOrganizationId: string | null;
}

/** The ids a call is charged to besides its key (null: none). */
interface ChargedIds {
  teamId: string | null;
  userId: string | null;
  customerId: string | null;
  /** The key's own organization; else its team's is charged. */
  keyOrganizationId: string | null;
}

/** The records of a call's owners, as memory or the database has them (null or undefined: none). */
interface ChargedRecords {
  team: TeamStatus | null | undefined;
  user: BudgetStatus | null | undefined;
  customer: BudgetStatus | null | undefined;
  organization: BudgetStatus | null | undefined;
}

/** Throws 403 for a blocked customer: before anything else is looked up for the call. */
function refuseBlocked(customer: BudgetStatus | null | undefined, ids: ChargedIds): void {
  if (customer?.blocked) {
    throw new ProxyError(403, 'customer_blocked', `The customer \`${ids.customerId}\` is blocked.`);
  }
}

/** The owners with something to enforce. */
function chargedFrom(key: LimitedOwner | undefined, ids: ChargedIds, records: ChargedRecords): Charged {
  const { team, user, customer, organization } = records;
  const teamOrganizationId = team?.organizationId ?? null;
  const organizationId = ids.keyOrganizationId ?? teamOrganizationId;
  const owners: LimitedOwner[] = [];
  const add = (owner: LimitedOwner | undefined) => {
    if (owner && isLimited(owner)) owners.push(owner);
  };
  add(key);
  if (team && ids.teamId !== null) add(teamOwner(ids.teamId, team));
  if (user && ids.userId !== null) add(budgetOwner('user', ids.userId, user));
  if (organization && organizationId !== null) add(budgetOwner('organization', organizationId, organization));
  if (customer && ids.customerId !== null) add(budgetOwner('customer', ids.customerId, customer));
  return { owners, teamOrganizationId };
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
    const ids: ChargedIds = { teamId, userId, customerId, keyOrganizationId: who.organization_id ?? null };
    return chargedNow(key, ids) ?? lookUp(key, ids);
  };

  /**
   * The charged owners from memory alone, when it holds every record the call names fresh (a warm
   * team, user or customer costs no promise); undefined when one must be read.
   */
  const chargedNow = (key: LimitedOwner | undefined, ids: ChargedIds): Charged | undefined => {
    const team = ids.teamId === null ? null : teams.cached(ids.teamId);
    const user = ids.userId === null || !caches ? null : caches.users.cached(ids.userId);
    const customer = ids.customerId === null || !caches ? null : caches.customers.cached(ids.customerId);
    if (team === undefined || user === undefined || customer === undefined) return undefined;
    refuseBlocked(customer, ids);
    const organizationId = ids.keyOrganizationId ?? team?.organizationId ?? null;
    const organization =
      organizationId === null || !caches ? null : caches.organizations.cached(organizationId);
    if (organization === undefined) return undefined;
    return chargedFrom(key, ids, { team, user, customer, organization });
  };

  const lookUp = async (key: LimitedOwner | undefined, ids: ChargedIds): Promise<Charged> => {
    const [team, user, customer] = await Promise.all([
      ids.teamId === null ? undefined : teams.get(ids.teamId),
      ids.userId === null || !caches ? undefined : caches.users.get(ids.userId),
      ids.customerId === null || !caches ? undefined : caches.customers.get(ids.customerId),
    ]);
    refuseBlocked(customer, ids);
    const organizationId = ids.keyOrganizationId ?? team?.organizationId ?? null;
    const organization =
      organizationId === null || !caches ? undefined : await caches.organizations.get(organizationId);
    return chargedFrom(key, ids, { team, user, customer, organization });
  };

  /**
   * Takes the owners' rate limits, then reserves their budgets (settling those reserved if one
   * refuses), from `from` on: the path of a call that must wait for one of them.
   */
  const reserveWaiting = async (
    owners: LimitedOwner[],
    reservations: BudgetReservation[],
    from: number,
    signal: CallSignal,
  ): Promise<BudgetReservation[]> => {
    try {
      if (from === 0) for (const owner of owners) if (limits.applies(owner)) await limits.admit(owner);
      for (let i = from; i < owners.length; i++) {
        const owner = owners[i]!;
        reservations.push(budgets.tryAdmit(owner) ?? (await budgets.admit(owner, signal)));
      }
    } catch (error) {
      for (const reservation of reservations) reservation.settle(0);
      throw error;
    }
    return reservations;
  };

  /**
   * The owners' reservations: at once when no rate limit applies and every budget has room (the
   * common call), else `reserveWaiting`'s promise. Each step waits only when it has something to wait
   * for: an await costs promises and a turn of jobs.
   */
  const reserve = (
    owners: LimitedOwner[],
    signal: CallSignal,
  ): BudgetReservation[] | Promise<BudgetReservation[]> => {
    const reservations: BudgetReservation[] = [];
    for (const owner of owners)
      if (limits.applies(owner)) return reserveWaiting(owners, reservations, 0, signal);
    try {
      for (let i = 0; i < owners.length; i++) {
        const reservation = budgets.tryAdmit(owners[i]!);
        if (reservation === undefined) return reserveWaiting(owners, reservations, i, signal);
        reservations.push(reservation);
      }
    } catch (error) {
      for (const reservation of reservations) reservation.settle(0);
      throw error;
    }
    return reservations;
  };

  // plain functions passed what they use: the common call (nothing to wait for) makes no closure
  const ledgerOf = (
    caller: Caller,
    charged: Charged,
    owners: LimitedOwner[],
    reservations: BudgetReservation[],
    facts: CallFacts,
  ): CallLedger =>
    new CallLedger(
      { owners, reservations, limits, sink, now, caller, teamOrganizationId: charged.teamOrganizationId },
      facts,
    );

  const openLedger = (
    caller: Caller,
    charged: Charged,
    owners: LimitedOwner[],
    facts: CallFacts,
    signal: CallSignal,
  ): CallLedger | Promise<CallLedger> => {
    const reserved = reserve(owners, signal);
    return isPromise(reserved)
      ? reserved.then((reservations) => ledgerOf(caller, charged, owners, reservations, facts))
      : ledgerOf(caller, charged, owners, reserved, facts);
  };

  const admitCharged = (
    caller: Caller,
    charged: Charged,
    facts: CallFacts,
    signal: CallSignal,
  ): CallLedger | Promise<CallLedger> => {
    const current = periods ? currentPeriods(periods, charged.owners) : charged.owners;
    return isPromise(current)
      ? current.then((owners) => openLedger(caller, charged, owners, facts, signal))
      : openLedger(caller, charged, current, facts, signal);
  };

  return (caller, facts, signal) => {
    // the key's, its team's (authentication brought it) or the token's model lists
    checkModelAccess(caller, facts.model, accessGroups?.(), wildcardFor?.(facts.model));
    const found = chargedOf(caller, facts.endUser);
    return isPromise(found)
      ? found.then((charged) => admitCharged(caller, charged, facts, signal))
      : admitCharged(caller, found, facts, signal);
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
