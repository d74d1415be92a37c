import { addDuration, nextPeriodEnd } from '../auth/duration.js';
import { type BudgetLevel, renewBudgetPeriod } from '../db/budget-periods-repo.js';
import type { ProxyContext } from '../proxy-context.js';

/**
 * When a budget period set now ends: now plus `budget_duration` (CONTRACT 6.6); null without one.
 */
export function firstBudgetResetAt(nowMs: number, duration: string | null | undefined): Date | null {
  return duration ? new Date(addDuration(nowMs, duration)) : null;
}

/**
 * A stored row as of its running budget period: when the period it holds has ended, the database
 * starts the next one first (as a call would), so that an info route never shows a past
 * `budget_reset_at` with the old period's spend.
 */
export async function inRunningPeriod<T extends { spend: number; budget_reset_at: Date | null }>(
  ctx: Pick<ProxyContext, 'db' | 'now'>,
  level: BudgetLevel,
  id: string,
  row: T,
): Promise<T> {
  if (row.budget_reset_at === null || row.budget_reset_at.getTime() > ctx.now()) return row;
  const period = await renewBudgetPeriod(ctx.db, level, id, ctx.now());
  return period ? { ...row, spend: period.spend, budget_reset_at: period.budget_reset_at } : row;
}

/**
 * The columns an update sets: a `budget_duration` it sets starts a first period now (null ends the
 * periods), as `/…/new` does, so the new duration never resets against the old period's end.
 */
export function withBudgetPeriod(values: Record<string, unknown>, nowMs: number): Record<string, unknown> {
  if (!('budget_duration' in values)) return values;
  const duration = values.budget_duration as string | null;
  return { ...values, budget_reset_at: firstBudgetResetAt(nowMs, duration) };
}

/**
 * A listed row as of now, without writing: when its budget period has ended, spend 0 and the next
 * `budget_reset_at`, as the first call or info read will store them (lists stay read-only).
 */
export function periodAsOf<
  T extends { spend: number; budget_duration: string | null; budget_reset_at: Date | null },
>(row: T, nowMs: number): T {
  const endsAt = row.budget_reset_at?.getTime();
  if (!row.budget_duration || endsAt === undefined || endsAt > nowMs) return row;
  return { ...row, spend: 0, budget_reset_at: new Date(nextPeriodEnd(endsAt, row.budget_duration, nowMs)) };
}
