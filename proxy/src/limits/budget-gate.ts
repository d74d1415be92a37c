import type { CallSignal } from '@svc/router';
import { ProxyError } from '../http/proxy-error.js';
import type { LimitedOwner } from './limited-owner.js';

/** A call admitted against a budget; settle it exactly once with what the call cost. */
export interface BudgetReservation {
  settle(cost: number): void;
}

interface OwnerBudget {
  /** Dollars known spent: the database's figure, plus what this process settled since. */
  spent: number;
  /** The end of the budget period `spent` counts (epoch ms); null: a budget that never resets. */
  periodEnd: number | null;
  inFlight: number;
  /** The dearest call seen on this key: what each call in flight is assumed to cost. */
  estimate: number | undefined;
  waiters: Array<() => void>;
}

const FREE: BudgetReservation = Object.freeze({ settle() {} });

/** Told when a call's cost takes an owner's spend across its `soft_budget` (in this process). */
export type SoftBudgetCrossed = (owner: LimitedOwner, spent: number) => void;

/**
 * Keeps a budgeted owner's calls (a key's, a team's, a user's...) from overspending when many race for its last
 * dollars. A call is admitted only while what is spent plus what the calls in flight may cost stays
 * under the budget; the others wait for a call to settle (until their own deadline). Until an owner's
 * first call has settled nothing is known of its cost, so its calls go one at a time. The most an
 * owner can overspend is one call's cost (the call admitted with the last cents), given calls cost no
 * more than the dearest seen.
 */
export class BudgetGate {
  // kept for the process's life: what was settled here may not be in the database (or the key cache) yet
  readonly #owners = new Map<string, OwnerBudget>();
  readonly #onSoftBudget: SoftBudgetCrossed | undefined;

  constructor(options: { onSoftBudget?: SoftBudgetCrossed | undefined } = {}) {
    this.#onSoftBudget = options.onSoftBudget;
  }

  /**
   * Admits a call on `owner` (its `maxBudget` in dollars, null is unlimited; its `spend` in the
   * budget period ending at its `budgetResetAt`, as the database knows it). Throws 400
   * `budget_exceeded` once spend reaches the budget; waits while admitting would risk overspending;
   * the wait ends with `signal`. An owner seen in a later period than before starts from its stored
   * spend of that period (the database reset it); calls still in flight settle into the new period.
   */
  async admit(owner: LimitedOwner, signal?: CallSignal): Promise<BudgetReservation> {
    for (;;) {
      const reservation = this.tryAdmit(owner);
      if (reservation) return reservation;
      await waitForSettle(this.#budget(owner), signal);
    }
  }

  /**
   * `admit` without the wait, for the common case at no promise's cost: the reservation when the call
   * may go at once, undefined when it must wait (then `admit`); throws `budget_exceeded` the same.
   */
  tryAdmit(owner: LimitedOwner): BudgetReservation | undefined {
    const max = owner.maxBudget;
    if (max === null && owner.softBudget === null) return FREE;
    const budget = this.#budget(owner);
    if (max !== null) {
      if (budget.spent >= max) throw exceeded(owner.label, budget.spent, max);
      const assumed =
        budget.estimate === undefined ? (budget.inFlight > 0 ? max : 0) : budget.inFlight * budget.estimate;
      if (budget.spent + assumed >= max) return undefined;
    }
    budget.inFlight += 1;
    let settled = false;
    return {
      settle: (cost) => {
        if (settled) return;
        settled = true;
        budget.inFlight -= 1;
        const before = budget.spent;
        budget.spent += cost;
        const soft = owner.softBudget;
        if (soft !== null && before < soft && budget.spent >= soft) this.#onSoftBudget?.(owner, budget.spent);
        if (cost > 0) budget.estimate = Math.max(budget.estimate ?? 0, cost);
        for (const wake of budget.waiters.splice(0)) wake();
      },
    };
  }

  #budget(owner: LimitedOwner): OwnerBudget {
    const { id, spend: storedSpend, budgetResetAt: periodEnd } = owner;
    let budget = this.#owners.get(id);
    if (!budget) {
      budget = { spent: storedSpend, periodEnd, inFlight: 0, estimate: undefined, waiters: [] };
      this.#owners.set(id, budget);
    } else if (periodEnd !== null && (budget.periodEnd === null || periodEnd > budget.periodEnd)) {
      // a new period: the database's figure for it is all that counts (the waiters may go on)
      budget.spent = storedSpend;
      budget.periodEnd = periodEnd;
      for (const wake of budget.waiters.splice(0)) wake();
    } else if (storedSpend > budget.spent && periodEnd === budget.periodEnd) {
      budget.spent = storedSpend;
    }
    return budget;
  }
}

function exceeded(who: string, spent: number, max: number): ProxyError {
  return new ProxyError(
    400,
    'budget_exceeded',
    `Budget exceeded: ${who} has spent $${spent.toFixed(6)} of its max_budget $${max}.`,
  );
}

function waitForSettle(budget: OwnerBudget, signal: CallSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      const at = budget.waiters.indexOf(wake);
      if (at >= 0) budget.waiters.splice(at, 1);
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.reason);
    };
    const wake = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    budget.waiters.push(wake);
    signal?.addEventListener('abort', onAbort);
  });
}
