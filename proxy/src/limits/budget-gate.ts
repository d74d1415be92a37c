import { ProxyError } from '../http/proxy-error.js';
import type { LimitedOwner } from './limited-owner.js';

/** A call admitted against a budget; settle it exactly once with what the call cost. */
export interface BudgetReservation {
  settle(cost: number): void;
}

interface OwnerBudget {
  /** Dollars known spent: the database's figure, plus what this process settled since. */
  spent: number;
  inFlight: number;
  /** The dearest call seen on this key: what each call in flight is assumed to cost. */
  estimate: number | undefined;
  waiters: Array<() => void>;
}

const FREE: BudgetReservation = Object.freeze({ settle() {} });

/**
 * Keeps a budgeted owner's calls (a key's, a team's) from overspending when many race for its last
 * dollars. A call is admitted only while what is spent plus what the calls in flight may cost stays
 * under the budget; the others wait for a call to settle (until their own deadline). Until an owner's
 * first call has settled nothing is known of its cost, so its calls go one at a time. The most an
 * owner can overspend is one call's cost (the call admitted with the last cents), given calls cost no
 * more than the dearest seen.
 */
export class BudgetGate {
  // kept for the process's life: what was settled here may not be in the database (or the key cache) yet
  readonly #owners = new Map<string, OwnerBudget>();

  /**
   * Admits a call on `owner` (its `maxBudget` in dollars, null is unlimited; its `spend` as the
   * database knows it). Throws 400 `budget_exceeded` once spend reaches the budget; waits while
   * admitting would risk overspending; the wait ends with `signal`.
   */
  async admit(owner: LimitedOwner, signal?: AbortSignal): Promise<BudgetReservation> {
    const max = owner.maxBudget;
    if (max === null) return FREE;
    const budget = this.#budget(owner.id, owner.spend);
    for (;;) {
      if (budget.spent >= max) throw exceeded(owner.label, budget.spent, max);
      const assumed =
        budget.estimate === undefined ? (budget.inFlight > 0 ? max : 0) : budget.inFlight * budget.estimate;
      if (budget.spent + assumed < max) break;
      await waitForSettle(budget, signal);
    }
    budget.inFlight += 1;
    let settled = false;
    return {
      settle: (cost) => {
        if (settled) return;
        settled = true;
        budget.inFlight -= 1;
        budget.spent += cost;
        if (cost > 0) budget.estimate = Math.max(budget.estimate ?? 0, cost);
        for (const wake of budget.waiters.splice(0)) wake();
      },
    };
  }

  #budget(id: string, storedSpend: number): OwnerBudget {
    let budget = this.#owners.get(id);
    if (!budget) {
      budget = { spent: storedSpend, inFlight: 0, estimate: undefined, waiters: [] };
      this.#owners.set(id, budget);
    } else if (storedSpend > budget.spent) {
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

function waitForSettle(budget: OwnerBudget, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      const at = budget.waiters.indexOf(wake);
      if (at >= 0) budget.waiters.splice(at, 1);
      reject(signal?.reason);
    };
    const wake = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    budget.waiters.push(wake);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
