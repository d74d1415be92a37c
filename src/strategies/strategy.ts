import type { Store } from '../stores/store.js';
import type { Deployment, MinuteUsage } from '../types/index.js';

/** What a strategy may look at to choose. */
export interface SelectionContext {
  /** The model group being routed. */
  readonly model: string;
  /** The caller's request (messages, input, metadata, ...). */
  readonly request: Readonly<Record<string, unknown>>;
  /**
   * This minute's usage of each candidate (`usage[i]` is `candidates[i]`'s), read from the store in one
   * `getMany` before `select`: set when the strategy has `needsUsage`, or pre-call checks are on and the
   * group sets `rpm`/`tpm`. Deployments at their limits are already left out. Undefined otherwise, and
   * when the store could not be read: treat it as no usage.
   */
  readonly usage?: readonly MinuteUsage[] | undefined;
}

/** What happened on a deployment, for strategies that learn (latency, usage). */
export interface CallOutcome {
  readonly deployment: Deployment;
  /** The model group the call was routed in. */
  readonly model: string;
  readonly ok: boolean;
  /** Start of the attempt to its end (for streams: to the stream's end). */
  readonly latencyMs: number;
  /** Start of the attempt to its result or first chunk. */
  readonly timeToFirstTokenMs?: number | undefined;
  readonly stream: boolean;
  readonly totalTokens?: number | undefined;
}

/**
 * Chooses one deployment among healthy candidates. Pure with respect to the router: a strategy holds
 * no reference back to it; its random source, clock and store are passed in. Implement this to add
 * one, and run `strategyContract` from `@svc/router/testing` against it.
 */
export interface RoutingStrategy {
  readonly name: string;
  /** One of `candidates` (the same object), or undefined to choose none. May answer with a Promise. */
  select(
    candidates: readonly Deployment[],
    context: SelectionContext,
  ): Deployment | undefined | Promise<Deployment | undefined>;
  /** Told of every finished attempt routed by it (optional). */
  onOutcome?(outcome: CallOutcome): void;
  /**
   * Asks the router for the candidates' minute usage (`context.usage`): it then reads their counters
   * before each selection, leaves out deployments at their `rpm`/`tpm`, and counts each request it
   * sends and the tokens each call used. @default false
   */
  readonly needsUsage?: boolean;
}

/** A source of uniform random numbers in [0, 1). */
export type RandomSource = () => number;

/** What a strategy is built with: the router's runtime pieces, never the router itself. */
export interface StrategyDeps {
  random: RandomSource;
  now: () => number;
  /**
   * Where state shared across router processes lives. The built-in strategies keep none of their own
   * here: the router reads and counts minute usage for them (`needsUsage`), and latency and in-flight
   * counts are this process's own measurements.
   */
  store: Store;
  /** Calls in flight on a deployment in this process. */
  inFlight(id: string): number;
  /**
   * The same count as a live object (`value` changes; one object per id for the router's life), for a
   * strategy that reads every candidate's count on each pick and keeps these instead of looking ids up.
   * Optional: without it, `inFlight` is used.
   */
  inFlightCounter?(id: string): { readonly value: number };
}

/** `routing_strategy_args` as written in settings. */
export type StrategyArgs = Readonly<Record<string, unknown>>;

/** Builds a strategy by name: one entry of the strategy table. */
export type StrategyFactory = (deps: StrategyDeps, args: StrategyArgs) => RoutingStrategy;
