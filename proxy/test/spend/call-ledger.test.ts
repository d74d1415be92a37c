import type { AbortedAttempt, HiddenParams } from '@svc/router';
import { APIConnectionError, MemoryStore, promptTokens } from '@svc/router';
import type { AuthContext } from '@svc/router/jwt';
import { describe, expect, it, vi } from 'vitest';
import type { KeyIdentity } from '../../src/auth/caller.js';
import type { SpendLogRow } from '../../src/db/spend-log-row.js';
import { BudgetGate } from '../../src/limits/budget-gate.js';
import { keyOwner } from '../../src/limits/limited-owner.js';
import { RateLimits } from '../../src/limits/rate-limits.js';
import { CallLedger, chargedTo } from '../../src/spend/call-ledger.js';
import type { CallContext } from '../../src/spend/spend-entry.js';

const key: KeyIdentity = {
  keyHash: 'a'.repeat(64),
  keyAlias: 'bot',
  models: [],
  teamId: null,
  userId: null,
  organizationId: null,
  maxBudget: 0.05,
  spend: 0,
  budgetDuration: null,
  budgetResetAt: null,
  softBudget: null,
  rpmLimit: null,
  tpmLimit: 1_000_000,
  expiresAt: null,
  blocked: false,
  metadata: {},
};

const hidden: HiddenParams = {
  model_id: 'east',
  model_group: 'gpt-4o',
  api_base: null,
  custom_llm_provider: 'openai',
  response_cost: 0.03,
  cache_hit: false,
  attempts: 1,
  priced: true,
};

const usage = { prompt_tokens: 10_000, completion_tokens: 10_000, total_tokens: 20_000 };

/** A ledger for one call of `key`, its budget admitted on `gate`, writing rows to `rows`. */
async function ledgerOf(
  gate: BudgetGate,
  limits: RateLimits,
  rows: SpendLogRow[],
  traceId: string | null = null,
  asked: { model: string; endUser: string | null } = { model: 'gpt-4o', endUser: null },
  contexts: CallContext[] = [],
) {
  const owner = keyOwner(key);
  const reservation = await gate.admit(owner);
  return new CallLedger(
    {
      caller: { kind: 'key', key },
      owners: [owner],
      reservations: [reservation],
      limits,
      sink: (call, row) => {
        contexts.push(call);
        rows.push(row);
      },
      now: () => 2_000,
    },
    {
      callId: 'c1',
      route: '/v1/chat/completions',
      model: asked.model,
      endUser: asked.endUser,
      stream: false,
      startedAt: 1_000,
      traceId,
    },
  );
}

describe('CallLedger', () => {
  it('charges a call its client left under way the counted prompt once per attempt then under way, at each one’s prices', async () => {
    const rows: SpendLogRow[] = [];
    const ledger = await ledgerOf(new BudgetGate(), new RateLimits(new MemoryStore(), Date.now), rows);
    const attempt = (model_id: string, perToken: number): AbortedAttempt => ({
      model_id,
      model_group: 'gpt-4o',
      provider: 'openai',
      priced: true,
      costOf: (u) => (u.prompt_tokens ?? 0) * perToken,
    });
    // a hedged call: two attempts had the prompt when the client left
    ledger.attemptAborted(attempt('east', 0.001));
    const request = { model: 'gpt-4o', messages: [{ role: 'user', content: 'one two three four five' }] };
    ledger.left(new Error('the client closed the connection'), request);
    // the hedge's other attempt ends a moment after the one that rejected the call
    ledger.attemptAborted(attempt('west', 0.002));
    const prompt = await promptTokens(request);
    await vi.waitFor(() => expect(rows).toHaveLength(1));
    expect(rows[0]).toMatchObject({
      model_id: 'west',
      prompt_tokens: 2 * prompt,
      completion_tokens: 0,
      usage_estimated: true,
      status: 'failure',
      error_code: 'client_closed',
      http_status: 499,
    });
    expect(rows[0]!.cost).toBeCloseTo(prompt * 0.003, 12);
  });

  it('charges nothing to a call its client left before any attempt', async () => {
    const rows: SpendLogRow[] = [];
    const ledger = await ledgerOf(new BudgetGate(), new RateLimits(new MemoryStore(), Date.now), rows);
    ledger.left(new Error('the client closed the connection'), { model: 'gpt-4o', messages: [] });
    await vi.waitFor(() => expect(rows).toHaveLength(1));
    expect(rows[0]).toMatchObject({ cost: 0, usage_estimated: false, error_code: 'client_closed' });
  });

  it('charges a non-streamed answer whose client was gone when it came, and says client_closed', async () => {
    const gate = new BudgetGate();
    const rows: SpendLogRow[] = [];
    const ledger = await ledgerOf(gate, new RateLimits(new MemoryStore(), Date.now), rows);
    ledger.succeed(hidden, usage, true);
    expect(rows[0]).toMatchObject({
      cost: 0.03,
      prompt_tokens: 10_000,
      completion_tokens: 10_000,
      status: 'failure',
      error_code: 'client_closed',
      http_status: 499,
      usage_estimated: false,
    });
    await ledgerOf(gate, new RateLimits(new MemoryStore(), Date.now), rows).then((second) =>
      second.succeed(hidden, usage, true),
    );
    await expect(gate.admit(keyOwner(key))).rejects.toMatchObject({ code: 'budget_exceeded' });
  });

  it('charges a cut answer its counted tokens, against the tpm limit too, naming the error that cut it', async () => {
    const store = new MemoryStore();
    const limits = new RateLimits(store, () => 0);
    const rows: SpendLogRow[] = [];
    const ledger = await ledgerOf(new BudgetGate(), limits, rows);
    const cut = new APIConnectionError('the upstream closed the connection mid-stream');
    ledger.answered(hidden, { usage, cost: 0.03, estimated: true }, { kind: 'cut', error: cut });
    expect(rows[0]).toMatchObject({
      cost: 0.03,
      total_tokens: 20_000,
      status: 'failure',
      error_code: 'api_connection',
      http_status: cut.status,
      usage_estimated: true,
      model_id: 'east',
    });
    await expect(limits.admit({ ...keyOwner(key), tpmLimit: 20_000 })).rejects.toMatchObject({ status: 429 });
  });

  it('writes the call’s trace id on its row, apart from its call id', async () => {
    const rows: SpendLogRow[] = [];
    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const ledger = await ledgerOf(new BudgetGate(), new RateLimits(new MemoryStore(), Date.now), rows, trace);
    ledger.succeed(hidden, usage);
    expect(rows[0]).toMatchObject({ call_id: 'c1', trace_id: trace, status: 'success', http_status: 200 });
  });

  it('makes a failed call’s row and record with the first 1024 characters of the model asked for', async () => {
    const rows: SpendLogRow[] = [];
    const contexts: CallContext[] = [];
    const asked = { model: 'm'.repeat(2_000_000), endUser: null };
    const limits = new RateLimits(new MemoryStore(), Date.now);
    const ledger = await ledgerOf(new BudgetGate(), limits, rows, null, asked, contexts);

    ledger.fail(new APIConnectionError('unreachable'));

    expect(rows[0]?.model_group).toBe('m'.repeat(1024));
    expect(contexts[0]?.model).toBe('m'.repeat(1024));
  });
});

describe('chargedTo', () => {
  it("charges a JWT's end-user claim as a row stores it: cut to 1024 characters, NULs removed", () => {
    const auth = { kind: 'team', end_user_id: `\0${'u'.repeat(2_000_000)}` } as unknown as AuthContext;

    expect(chargedTo({ kind: 'jwt', auth }, 'from-request').end_user).toBe('u'.repeat(1023));
  });
});
