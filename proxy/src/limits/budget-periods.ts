import { renewBudgetPeriod } from '../db/budget-periods-repo.js';
import type { Queryable } from '../db/database.js';
import type { LimitedOwner } from './limited-owner.js';

/** A period this process saw the database renew: read as `staleEnd`, now ending at `end`. */
interface Renewed {
  staleEnd: number;
  end: number | null;
  spend: number;
}

/**
 * Budget periods on the call path (CONTRACT 6.6): an owner whose period has ended (as cached) has the
 * database start the next one before its call is admitted, lazily, by the first call after the end;
 * no timer runs, and several processes renewing at once reset once (`renewBudgetPeriod`). What a
 * renewal found is remembered, so that the cached owner, still showing the old period until its cache
 * entry is read again, costs no further query.
 */
export class BudgetPeriods {
  readonly #db: Queryable;
  readonly #now: () => number;
  readonly #renewed = new Map<string, Renewed>();
  readonly #renewing = new Map<string, Promise<Renewed | undefined>>();

  constructor(deps: { db: Queryable; now: () => number }) {
    this.#db = deps.db;
    this.#now = deps.now;
  }

  /** The owner in its running budget period: itself while the period it was read in runs on. */
  current(owner: LimitedOwner): LimitedOwner | Promise<LimitedOwner> {
    const end = owner.budgetResetAt;
    if (end === null || end > this.#now()) return owner;
    const known = this.#renewed.get(owner.id);
    if (known && known.staleEnd === end && (known.end === null || known.end > this.#now())) {
      return { ...owner, spend: known.spend, budgetResetAt: known.end };
    }
    return this.#renew(owner, end).then((renewed) =>
      renewed ? { ...owner, spend: renewed.spend, budgetResetAt: renewed.end } : owner,
    );
  }

  #renew(owner: LimitedOwner, staleEnd: number): Promise<Renewed | undefined> {
    let renewing = this.#renewing.get(owner.id);
    if (!renewing) {
      renewing = renewBudgetPeriod(this.#db, owner.level, owner.rowId, this.#now())
        .then((stored) => {
          if (!stored) return undefined;
          const renewed = { staleEnd, end: stored.budget_reset_at?.getTime() ?? null, spend: stored.spend };
          this.#renewed.set(owner.id, renewed);
          return renewed;
        })
        .finally(() => this.#renewing.delete(owner.id));
      this.#renewing.set(owner.id, renewing);
    }
    return renewing;
  }
}
