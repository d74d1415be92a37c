import type { AbortedAttempt, HiddenParams, Usage } from '@svc/router';
import { promptTokens, RouterError } from '@svc/router';
import type { Caller } from '../auth/caller.js';
import { cutText, type SpendLogRow, storedEndUser } from '../db/spend-log-row.js';
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
  /** The request's W3C trace id when traced, else null. */
  traceId: string | null;
  /** The request's tags (`metadata.tags`, header `x-svc-tags`); absent or empty: untagged. */
  tags?: readonly string[] | undefined;
}

/** What an answer is charged: its usage and cost, and whether the proxy counted the tokens itself. */
export interface Charge {
  usage: Usage | undefined;
  cost: number;
  /** The upstream reported no usage: the tokens are counted from the prompt and the text delivered. */
  estimated: boolean;
}

/**
 * How an answer that reached the caller ended: whole, left by the client (whole or not), or cut by a
 * failure after its first byte (`error`).
 */
export type AnswerEnd = { kind: 'whole' } | { kind: 'client_closed' } | { kind: 'cut'; error: unknown };

/** The answer reached the client whole. */
export const WHOLE: AnswerEnd = Object.freeze({ kind: 'whole' });
/** The client left before the whole answer reached it. */
export const CLIENT_CLOSED: AnswerEnd = Object.freeze({ kind: 'client_closed' });

export interface LedgerDeps {
  caller: Caller;
  /** Whom the call was admitted against (those with a budget or a limit), at every level. */
  owners: readonly LimitedOwner[];
  /** The organization of the key's team: the row names it when the key names no organization. */
  teamOrganizationId?: string | null | undefined;
  /** Their budget reservations, settled with the call's cost. */
  reservations: readonly BudgetReservation[];
  limits: RateLimits;
  sink: SpendSink;
  now: () => number;
}

/**
 * Whom a call's spend row names (and so whose spend its cost is added to): the key's user, team and
 * organization (the key's, else its team's: `teamOrganizationId`); for a JWT, the user, team,
 * organization and end user the token resolved to (spec 5.3.4). The token's end-user claim, being
 * verified, wins over the request's `user`. `endUser` is already as a row stores it (`storedEndUser`).
 */
export function chargedTo(
  caller: Caller,
  endUser: string | null,
  teamOrganizationId: string | null = null,
): Pick<SpendLogRow, 'key_hash' | 'user_id' | 'team_id' | 'organization_id' | 'end_user'> {
  if (caller.kind === 'jwt') {
    const { auth } = caller;
    return {
      key_hash: null,
      user_id: auth.user_id ?? null,
      team_id: auth.team_id ?? null,
      organization_id: auth.org_id ?? null,
      // cut and repaired as the row stores it, as a request's `user` is (admitAndRoute): the customer
      // admission refuses or lets through is the one the row charges
      end_user: auth.end_user_id == null ? endUser : storedEndUser(auth.end_user_id),
    };
  }
  const key = caller.kind === 'key' ? caller.key : undefined;
  return {
    key_hash: key?.keyHash ?? null,
    user_id: key?.userId ?? null,
    team_id: key?.teamId ?? null,
    organization_id: key?.organizationId ?? teamOrganizationId,
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
  /** The router's attempts under way when the client left (`attemptAborted`). */
  #aborted: AbortedAttempt[] | undefined;

  /**
   * `CallControl.onAbortedAttempt` for the call's router call: an attempt the client's leaving
   * cancelled, whose provider had the prompt (`left` charges it).
   */
  readonly attemptAborted = (attempt: AbortedAttempt): void => {
    if (this.#aborted) this.#aborted.push(attempt);
    else this.#aborted = [attempt];
  };

  constructor(
    private readonly deps: LedgerDeps,
    private readonly facts: CallFacts,
  ) {}

  /**
   * Whether the call is charged to a budget (an owner with `max_budget`): its cost must be known, so it
   * may only use deployments with a price (or `allow_unpriced`).
   */
  get budgeted(): boolean {
    for (const owner of this.deps.owners) if (owner.maxBudget !== null) return true;
    return false;
  }

  /**
   * The call produced its answer: `hidden` is the result's `_hidden_params`, `usage` what the provider
   * reported. `clientGone`: the client left before the answer could be sent; it is charged all the
   * same, and the row says `client_closed`.
   */
  succeed(hidden: HiddenParams | undefined, usage: Usage | null | undefined, clientGone = false): void {
    const charge = { usage: usage ?? undefined, cost: hidden?.response_cost ?? 0, estimated: false };
    this.answered(hidden, charge, clientGone ? CLIENT_CLOSED : WHOLE);
  }

  /**
   * An answer reached the caller, whole or cut: it is charged (`charge`) however it ended, and the row
   * says how (`end`): a success only when whole; else a failure with `client_closed` (499) or the
   * error that cut it.
   */
  answered(hidden: HiddenParams | undefined, charge: Charge, end: AnswerEnd): void {
    const how = howItEnded(end);
    this.#close({
      cost: charge.cost,
      usage: charge.usage,
      usage_estimated: charge.estimated,
      model_group: hidden?.model_group ?? this.facts.model,
      model_id: hidden?.model_id ?? null,
      provider: hidden?.custom_llm_provider ?? null,
      cache_hit: hidden?.cache_hit ?? false,
      priced: hidden?.priced ?? true,
      status: how.status,
      error_code: how.error_code,
      http_status: how.http_status,
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
      model: cutText(this.facts.model),
      key_alias: caller.kind === 'key' ? caller.key.keyAlias : null,
      time_to_first_token_ms:
        first === undefined ? null : Math.max(0, Math.min(first, end) - this.facts.startedAt),
    };
  }

  /** The call failed before any of its answer reached the caller, or the client went away first. */
  fail(error: unknown, clientGone = false): void {
    const routerError = RouterError.isInstance(error) ? error : undefined;
    this.#close({
      cost: 0,
      usage: undefined,
      usage_estimated: false,
      model_group: this.facts.model,
      model_id: routerError?.modelId ?? null,
      provider: routerError?.provider ?? null,
      cache_hit: false,
      priced: true, // a failed call's cost of 0 is its real cost
      status: 'failure',
      error_code: clientGone ? 'client_closed' : errorCode(error),
      http_status: clientGone ? 499 : errorStatus(error),
    });
  }

  /**
   * The client left before any of the answer reached it (`error`: why the call stopped). Each attempt
   * the router had under way then (`attemptAborted`) had sent the prompt, which its provider bills:
   * the call is charged the prompt's tokens as counted from `request`, once per such attempt, at its
   * deployment's prices (`usage_estimated`). With none under way (the call was still being admitted
   * or routed), nothing.
   */
  left(error: unknown, request: Readonly<Record<string, unknown>>): void {
    // a hedged call's other attempts end a moment after the one that rejected the call
    setImmediate(() => this.#chargeLeft(error, request));
  }

  #chargeLeft(error: unknown, request: Readonly<Record<string, unknown>>): void {
    const attempts = this.#aborted;
    if (!attempts) {
      this.fail(error, true);
      return;
    }
    promptTokens(request).then(
      (counted) => {
        // nothing to count (a transcription's audio): nothing is known to charge
        if (counted === 0) {
          this.fail(error, true);
          return;
        }
        const tokens = counted * attempts.length;
        const usage: Usage = { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens };
        const each: Usage = { prompt_tokens: counted, completion_tokens: 0, total_tokens: counted };
        let cost = 0;
        let priced = true;
        for (const attempt of attempts) {
          cost += attempt.costOf(each);
          priced &&= attempt.priced;
        }
        const last = attempts[attempts.length - 1]!;
        this.#close({
          cost,
          usage,
          usage_estimated: true,
          model_group: last.model_group,
          model_id: last.model_id,
          provider: last.provider,
          cache_hit: false,
          priced,
          status: 'failure',
          error_code: 'client_closed',
          http_status: 499,
        });
      },
      // a count that fails (it never should) must not leave the call's books open
      () => this.fail(error, true),
    );
  }

  #close(outcome: {
    cost: number;
    usage: Usage | undefined;
    usage_estimated: boolean;
    model_group: string;
    model_id: string | null;
    provider: string | null;
    cache_hit: boolean;
    priced: boolean;
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
    const who = chargedTo(caller, this.facts.endUser, this.deps.teamOrganizationId ?? null);
    const end = now();
    // every field named, no `...rest`: a spread followed by more properties made V8 build this row on
    // its slow path, about 20 µs per call under load (bench:proxy's profile)
    sink(this.#context(end), {
      cost: outcome.cost,
      // the model asked for is caller input of any length: the row keeps what it stores of it, not the
      // request's string, while it waits to be written (the end user is cut where it is decided)
      model_group: cutText(outcome.model_group),
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
      trace_id: this.facts.traceId,
      usage_estimated: outcome.usage_estimated,
      priced: outcome.priced,
      tags: this.facts.tags?.length ? this.facts.tags : null,
    });
  }
}

/** The row's `error_code` of a failure: the router's or the proxy's code, else `internal_error`. */
function errorCode(error: unknown): string {
  if (RouterError.isInstance(error)) return error.code;
  if (error instanceof ProxyError) return error.code;
  return 'internal_error';
}

/** The row's `http_status` of a failure: the router's or the proxy's status, else 500. */
function errorStatus(error: unknown): number {
  if (RouterError.isInstance(error)) return error.status;
  if (error instanceof ProxyError) return error.status;
  return 500;
}

const ENDED_WHOLE = Object.freeze({ status: 'success', error_code: null, http_status: 200 } as const);
const ENDED_BY_CLIENT = Object.freeze({
  status: 'failure',
  error_code: 'client_closed',
  http_status: 499,
} as const);

/** What a spend row says of how an answer ended. */
function howItEnded(end: AnswerEnd): {
  status: 'success' | 'failure';
  error_code: string | null;
  http_status: number;
} {
  if (end.kind === 'whole') return ENDED_WHOLE;
  if (end.kind === 'client_closed') return ENDED_BY_CLIENT;
  return { status: 'failure', error_code: errorCode(end.error), http_status: errorStatus(end.error) };
}
