import type { Deployment } from '../types/index.js';

/** What a strategy may look at to choose. */
export interface SelectionContext {
  /** The model group being routed. */
  readonly model: string;
  /** The caller's request (messages, input, metadata, ...). */
  readonly request: Readonly<Record<string, unknown>>;
}

/** What happened on a deployment, for strategies that learn (latency, usage). */
export interface CallOutcome {
  readonly deployment: Deployment;
  readonly ok: boolean;
  readonly latencyMs: number;
  readonly totalTokens?: number;
}

/**
 * Chooses one deployment among healthy candidates. Pure with respect to the router: a strategy holds
 * no reference back to it; its random source and clock are passed in. Implement this to add one.
 */
export interface RoutingStrategy {
  readonly name: string;
  select(
    candidates: readonly Deployment[],
    context: SelectionContext,
  ): Deployment | undefined | Promise<Deployment | undefined>;
  /** Told of every finished attempt (optional). */
  onOutcome?(outcome: CallOutcome): void;
}

/** A source of uniform random numbers in [0, 1). */
export type RandomSource = () => number;
