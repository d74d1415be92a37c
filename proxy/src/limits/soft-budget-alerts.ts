import { claimSoftBudgetAlert } from '../db/budget-periods-repo.js';
import type { Queryable } from '../db/database.js';
import type { SoftBudgetCrossed } from './budget-gate.js';
import type { LimitedOwner } from './limited-owner.js';

// a budget set as 1.5 * 0.00002 reads $0.00003, not $0.000029999999999999997
const dollars = (value: number): string => `$${Number(value.toPrecision(12))}`;

/** The webhook line of a `budget_alert`: who crossed what, and what is left of the period. */
export function budgetAlertLine(owner: LimitedOwner, spent: number): string {
  const parts = [
    '[budget_alert]',
    `${owner.label} crossed its soft_budget ${dollars(owner.softBudget ?? 0)}:`,
    `spend=$${spent.toFixed(6)}`,
  ];
  if (owner.maxBudget !== null) parts.push(`max_budget=${dollars(owner.maxBudget)}`);
  if (owner.budgetResetAt !== null)
    parts.push(`budget_reset_at=${new Date(owner.budgetResetAt).toISOString()}`);
  return parts.join(' ');
}

/**
 * What the budget gate calls when a call takes a key's or team's spend across its `soft_budget`:
 * the database is asked to claim the period's alert (so that of several processes, and of several
 * crossings in one period, one alert is raised), then the line goes to the alerting webhook. Off
 * the call path; a failure is logged, never thrown.
 */
export function softBudgetAlerts(deps: {
  db: Queryable;
  raise: (line: string) => void;
  log: (message: string) => void;
}): SoftBudgetCrossed {
  return (owner, spent) => {
    if (owner.level !== 'key' && owner.level !== 'team') return;
    const level = owner.level;
    claimSoftBudgetAlert(deps.db, level, owner.rowId).then(
      (claimed) => {
        if (claimed) deps.raise(budgetAlertLine(owner, spent));
      },
      (error: unknown) =>
        deps.log(`budget_alert of ${owner.label} not raised: ${(error as Error).message ?? String(error)}`),
    );
  };
}
