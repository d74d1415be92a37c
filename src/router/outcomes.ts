import type { RouterError } from '../errors/router-error.js';
import type { RoutingStrategy } from '../strategies/strategy.js';
import type { Endpoint, ModelGroup, Usage } from '../types/index.js';
import type { CallTrace } from './observability/call-trace.js';

/** How one attempt ended; `cache_hit`: a call answered from the cache, with no attempt at all. */
export type OutcomeKind = 'success' | 'failure' | 'aborted' | 'cache_hit';

/**
 * One finished attempt on one deployment. Every attempt reports exactly one (a stream when it ends),
 * and everything that learns from attempts (cooldowns, concurrency slots, strategies, events and
 * callbacks) listens to these and nothing else.
 */
export interface AttemptOutcome {
  readonly kind: OutcomeKind;
  readonly endpoint: Endpoint;
  readonly group: ModelGroup;
  /** The strategy that chose the endpoint, told through `onOutcome`. */
  readonly strategy: RoutingStrategy | undefined;
  /** The caller's request (router fields included), for callbacks. */
  readonly request: Readonly<Record<string, unknown>>;
  readonly stream: boolean;
  readonly startMs: number;
  readonly endMs: number;
  /** When the call this attempt belongs to started (`Call.startMs`). */
  readonly callStartMs: number;
  /** When the result or first chunk arrived, for successes. */
  readonly firstMs?: number | undefined;
  readonly error?: RouterError | undefined;
  readonly usage?: Partial<Usage> | undefined;
  /** Upstream attempts of the call so far. */
  readonly attempts: number;
  /** The attempt was a hedge: it raced an earlier attempt of the call that had not answered yet. */
  readonly hedged: boolean;
  /** Deployments that failed the call so far. */
  readonly excluded?: ReadonlySet<string> | undefined;
  /** The call's failed attempts so far, oldest first (a failure's own error is the last). */
  readonly failures: readonly RouterError[];
  /** For the final success: the result given to the caller and its cost. */
  readonly response?: unknown;
  /** Answered from the response cache (kind `cache_hit`). */
  readonly cacheHit?: boolean | undefined;
  readonly cost?: number | undefined;
  /** The span of the call, when it is traced: the attempt's span is its child. */
  readonly trace?: CallTrace | undefined;
}

export type OutcomeListener = (outcome: AttemptOutcome) => void;

/** Where attempts report; listeners run in order, and one that throws never stops the others. */
export class OutcomeChannel {
  readonly #listeners: OutcomeListener[] = [];

  listen(listener: OutcomeListener): void {
    this.#listeners.push(listener);
  }

  report(outcome: AttemptOutcome): void {
    for (const listener of this.#listeners) {
      try {
        listener(outcome);
      } catch {
        // bookkeeping of one listener never breaks another's, nor the call
      }
    }
  }
}
