import { RouterError } from '../../errors/router-error.js';
import type { HiddenParams, Usage } from '../../types/index.js';
import type { Caller } from '../auth/caller.js';
import type { SpendLogRow } from '../db/spend-log-row.js';
import { ProxyError } from '../http/proxy-error.js';
import type { BudgetReservation } from '../limits/budget-gate.js';
import type { LimitedOwner } from '../limits/limited-owner.js';
import type { RateLimits } from '../limits/rate-limits.js';
import type { CallContext, SpendSink } from './spend-entry.js';

/** What a call is, as known when it is admitted. */
export interface CallFacts {
  callId: string;
  route: string;
  /** The model group the caller asked for. */
  model: string;
  endUser: string | null;
  stream: boolean;
  /** Epoch ms at which the proxy received the request. */
  startedAt: number;
}

export interface LedgerDeps {
  caller: Caller;
  /** The key and team the call was admitted against (those with a budget or a limit). */
  owners: readonly LimitedOwner[];
  /** Their budget reservations, settled with the call's cost. */
  reservations: readonly BudgetReservation[];
  limits: RateLimits;
  sink: SpendSink;
  now: () => number;
}

/**
 * Whom a call's spend row names (and so whose spend its cost is added to): the key's user, team and
 * organization; for a JWT, the user, team, organization and end user the token resolved to (spec
 * 5.3.4). The token's end-user claim, being verified, wins over the request's `user`.
 */
export function chargedTo(
  caller: Caller,
  endUser: string | null,
): Pick<SpendLogRow, 'key_hash' | 'user_id' | 'team_id' | 'organization_id' | 'end_user'> {
  if (caller.kind === 'jwt') {
    const { auth } = caller;
    return {
      key_hash: null,
      user_id: auth.user_id ?? null,
      team_id: auth.team_id ?? null,
      organization_id: auth.org_id ?? null,
      end_user: auth.end_user_id ?? endUser,
    };
  }
  const key = caller.kind === 'key' ? caller.key : undefined;
  return {
    key_hash: key?.keyHash ?? null,
    user_id: key?.userId ?? null,
    team_id: key?.teamId ?? null,
    organization_id: key?.organizationId ?? null,
    end_user: endUser,
  };
}

/**
 * The books of one admitted call: when it ends (a result, a stream's end, or a failure) it releases
 * the budget reservations with the real cost, counts the tokens against each tpm limit, and writes one
 * spend row. Whatever happens, it is closed exactly once.
 */
export class CallLedger {
  #closed = false;
  /** When a stream's first chunk was read (epoch ms); undefined until then, and for other calls. */
  #firstChunkAt: number | undefined;

  constructor(
    private readonly deps: LedgerDeps,
    private readonly facts: CallFacts,
  ) {}

  /** The call succeeded: `hidden` is the result's `_hidden_params`, `usage` what the provider reported. */
  succeed(hidden: HiddenParams | undefined, usage: Usage | null | undefined): void {
    const cost = hidden?.response_cost ?? 0;
    this.#close({
      cost,
      usage: usage ?? undefined,
      model_group: hidden?.model_group ?? this.facts.model,
      model_id: hidden?.model_id ?? null,
      provider: hidden?.custom_llm_provider ?? null,
      cache_hit: hidden?.cache_hit ?? false,
      status: 'success',
      error_code: null,
      http_status: 200,
    });
  }

  /** A stream's first chunk arrived: the call's time to first token. Later calls change nothing. */
  firstChunk(): void {
    this.#firstChunkAt ??= this.deps.now();
  }

  /** What call records add to the spend row: the requested model, the key's alias, time to first token. */
  #context(end: number): CallContext {
    const { caller } = this.deps;
    const first = this.#firstChunkAt;
    return {
      model: this.facts.model,
      key_alias: caller.kind === 'key' ? caller.key.keyAlias : null,
      time_to_first_token_ms:
        first === undefined ? null : Math.max(0, Math.min(first, end) - this.facts.startedAt),
    };
  }

  /** The call failed (before or during its answer), or the client went away. */
  fail(error: unknown, clientGone = false): void {
    const routerError = RouterError.isInstance(error) ? error : undefined;
    const proxyError = error instanceof ProxyError ? error : undefined;
    this.#close({
      cost: 0,
      usage: undefined,
      model_group: this.facts.model,
      model_id: routerError?.modelId ?? null,
      provider: routerError?.provider ?? null,
      cache_hit: false,
      status: 'failure',
      error_code: clientGone ? 'client_closed' : (routerError?.code ?? proxyError?.code ?? 'internal_error'),
      http_status: clientGone ? 499 : (routerError?.status ?? proxyError?.status ?? 500),
    });
  }

  #close(outcome: {
    cost: number;
    usage: Usage | undefined;
    model_group: string;
    model_id: string | null;
    provider: string | null;
    cache_hit: boolean;
    status: 'success' | 'failure';
    error_code: string | null;
    http_status: number;
  }): void {
    if (this.#closed) return;
    this.#closed = true;
    const { caller, owners, reservations, limits, sink, now } = this.deps;
    const { usage } = outcome;
    for (const reservation of reservations) reservation.settle(outcome.cost);
    // tokens are counted only where a tpm_limit reads them: no store round trip for owners without one
    if (usage) {
      for (const owner of owners) {
        if (owner.tpmLimit !== null) limits.recordTokens(owner.id, usage.total_tokens);
      }
    }
    const who = chargedTo(caller, this.facts.endUser);
    const end = now();
    // every field named, no `...rest`: a spread followed by more properties made V8 build this row on
    // its slow path, about 20 µs per call under load (bench:proxy's profile)
    sink(this.#context(end), {
      cost: outcome.cost,
      model_group: outcome.model_group,
      model_id: outcome.model_id,
      provider: outcome.provider,
      cache_hit: outcome.cache_hit,
      status: outcome.status,
      error_code: outcome.error_code,
      http_status: outcome.http_status,
      call_id: this.facts.callId,
      key_hash: who.key_hash,
      user_id: who.user_id,
      team_id: who.team_id,
      organization_id: who.organization_id,
      end_user: who.end_user,
      route: this.facts.route,
      prompt_tokens: usage?.prompt_tokens ?? 0,
      completion_tokens: usage?.completion_tokens ?? 0,
      total_tokens: usage?.total_tokens ?? 0,
      latency_ms: Math.max(0, end - this.facts.startedAt),
      stream: this.facts.stream,
      start_time: new Date(this.facts.startedAt),
      end_time: new Date(end),
    });
  }
}
