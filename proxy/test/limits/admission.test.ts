import { isPromise, MemoryStore } from '@svc/router';
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../src/auth/caller.js';
import { TeamCache } from '../../src/auth/team-cache.js';
import { createAdmission } from '../../src/limits/admission.js';
import { BudgetGate } from '../../src/limits/budget-gate.js';
import { RateLimits } from '../../src/limits/rate-limits.js';
import { keyIdentity, teamStatus } from '../auth/key-identity.js';

const NOW = 1_700_000_000_000;
const facts = {
  callId: 'call-1',
  route: '/v1/chat/completions',
  model: 'gpt-4o',
  endUser: null,
  stream: false,
  startedAt: NOW,
  traceId: null,
};
const signal = new AbortController().signal;

/** An admission over memory: team `t` (its status given) read into the cache before the first call. */
async function admission(team = teamStatus()) {
  const teams = new TeamCache(async () => team, { ttlMs: 60_000 });
  await teams.get('t');
  const admit = createAdmission({
    budgets: new BudgetGate(),
    limits: new RateLimits(new MemoryStore({ now: () => NOW }), () => NOW),
    teams,
    sink: () => {},
    now: () => NOW,
  });
  return admit;
}

const keyCaller = (fields: Parameters<typeof keyIdentity>[0] = {}): Caller => ({
  kind: 'key',
  key: keyIdentity({ keyHash: 'k1', ...fields }),
});

describe('admission', () => {
  it('opens the ledger at once, without a promise, when owners are in memory and budgets have room', async () => {
    const admit = await admission();
    const ledger = admit(keyCaller({ maxBudget: 10, teamId: 't' }), facts, signal);
    expect(isPromise(ledger)).toBe(false);
    expect(isPromise(ledger) ? undefined : ledger.budgeted).toBe(true);
  });

  it('goes through a promise when an owner has a rate limit, and still opens the ledger', async () => {
    const admit = await admission();
    const admitted = admit(keyCaller({ rpmLimit: 5 }), facts, signal);
    expect(isPromise(admitted)).toBe(true);
    expect((await admitted).budgeted).toBe(false);
  });

  it("releases the key's reservation when its team's budget refuses the call", async () => {
    const admit = await admission(teamStatus({ maxBudget: 1, spend: 1 }));
    expect(() => admit(keyCaller({ maxBudget: 10, teamId: 't' }), facts, signal)).toThrow(/budget/i);
    // a reservation left open would make the key's next call wait for it (a promise that never settles)
    const next = admit(keyCaller({ maxBudget: 10 }), facts, signal);
    expect(isPromise(next)).toBe(false);
  });
});
