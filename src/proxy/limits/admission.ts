import { checkModelAccess } from '../auth/authenticate.js';
import type { Caller } from '../auth/caller.js';
import { type CallFacts, CallLedger } from '../spend/call-ledger.js';
import type { SpendSink } from '../spend/spend-entry.js';
import type { BudgetGate, BudgetReservation } from './budget-gate.js';
import type { KeyRateLimits } from './key-rate-limits.js';

const UNLIMITED: BudgetReservation = Object.freeze({ settle() {} });

/** Lets a call through the caller's model list, rate limits and budget, and opens its ledger. */
export type Admit = (caller: Caller, facts: CallFacts, signal: AbortSignal) => Promise<CallLedger>;

/** Builds the admission step from the proxy's limits and its spend sink. */
export function createAdmission(deps: {
  budgets: BudgetGate;
  limits: KeyRateLimits;
  sink: SpendSink;
  now: () => number;
}): Admit {
  const { budgets, limits, sink, now } = deps;
  return async (caller, facts, signal) => {
    checkModelAccess(caller, facts.model);
    let reservation = UNLIMITED;
    if (caller.kind === 'key') {
      const { key } = caller;
      await limits.admit(key.keyHash, key.rpmLimit, key.tpmLimit);
      reservation = await budgets.admit(key.keyHash, key.maxBudget, key.spend, signal);
    }
    return new CallLedger({ caller, reservation, limits, sink, now }, facts);
  };
}
