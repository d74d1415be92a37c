import { describe, expect, it } from 'vitest';
import { ProxyError } from '../src/http/proxy-error.js';
import { BudgetGate } from '../src/limits/budget-gate.js';
import type { LimitedOwner } from '../src/limits/limited-owner.js';

/** Key `k` with budget `maxBudget` and stored spend `spend`. */
const key = (maxBudget: number | null, spend: number): LimitedOwner => ({
  id: 'k',
  level: 'key',
  rowId: 'k',
  label: 'key `k`',
  maxBudget,
  spend,
  softBudget: null,
  budgetResetAt: null,
  rpmLimit: null,
  tpmLimit: null,
});

describe('BudgetGate', () => {
  it('admits any number of calls on a key without a budget', async () => {
    const gate = new BudgetGate();
    const calls = await Promise.all(Array.from({ length: 20 }, () => gate.admit(key(null, 0))));
    expect(calls).toHaveLength(20);
  });

  it('refuses with 400 budget_exceeded once the stored spend reaches the budget', async () => {
    const gate = new BudgetGate();
    const refused = await gate.admit(key(1, 1)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProxyError);
    expect(refused).toMatchObject({ status: 400, code: 'budget_exceeded' });
    expect((refused as Error).message).toBe(
      'Budget exceeded: key `k` has spent $1.000000 of its max_budget $1.',
    );
  });

  it('keeps separate books per owner and names the one refused', async () => {
    const gate = new BudgetGate();
    const team: LimitedOwner = { ...key(1, 1), id: 'team:ads', label: 'team `ads`' };
    await expect(gate.admit(key(1, 0))).resolves.toBeDefined();
    await expect(gate.admit(team)).rejects.toThrow('Budget exceeded: team `ads` has spent $1.000000');
  });

  it('tryAdmit reserves at once when the call may go, and leaves a call that must wait to admit', () => {
    const gate = new BudgetGate();
    const first = gate.tryAdmit(key(1, 0));
    expect(first).toBeDefined();
    // nothing is known yet of what a call costs: the second must wait for the first to settle
    expect(gate.tryAdmit(key(1, 0))).toBeUndefined();
    first!.settle(0.1);
    expect(gate.tryAdmit(key(1, 0))).toBeDefined();
    expect(() => gate.tryAdmit(key(1, 1))).toThrow('Budget exceeded');
  });

  it('lets one call at a time through until a call has shown what a call costs', async () => {
    const gate = new BudgetGate();
    const first = await gate.admit(key(1, 0));
    let secondAdmitted = false;
    const second = gate.admit(key(1, 0)).then((r) => {
      secondAdmitted = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(secondAdmitted).toBe(false);
    first.settle(0.01);
    (await second).settle(0.01);
    expect(secondAdmitted).toBe(true);
  });

  it('never lets 50 racing calls spend more than the budget plus one call', async () => {
    const gate = new BudgetGate();
    const cost = 0.1;
    let spent = 0;
    let refused = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        try {
          const reservation = await gate.admit(key(1, 0));
          await new Promise((r) => setTimeout(r, 1));
          spent += cost;
          reservation.settle(cost);
        } catch (error) {
          expect(error).toMatchObject({ code: 'budget_exceeded' });
          refused += 1;
        }
      }),
    );
    expect(spent).toBeLessThanOrEqual(1 + cost + 1e-9);
    expect(spent).toBeGreaterThanOrEqual(1 - 1e-9);
    expect(refused).toBeGreaterThanOrEqual(39);
  });

  it('ends a wait with the caller signal', async () => {
    const gate = new BudgetGate();
    await gate.admit(key(1, 0));
    const controller = new AbortController();
    const waiting = gate.admit(key(1, 0), controller.signal);
    controller.abort(new Error('client gone'));
    await expect(waiting).rejects.toThrow('client gone');
  });

  it('takes a higher spend read from the database over its own count', async () => {
    const gate = new BudgetGate();
    (await gate.admit(key(1, 0))).settle(0.1);
    await expect(gate.admit(key(1, 1.5))).rejects.toMatchObject({ code: 'budget_exceeded' });
  });
});
