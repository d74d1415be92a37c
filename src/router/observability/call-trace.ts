import type { Span } from '@opentelemetry/api';

/** The span of a call being traced, which its attempts' spans are children of. */
export interface CallTrace {
  readonly span: Span;
  /** `gen_ai.operation.name` of the call. */
  readonly operation: string;
}

/** Span attribute names of the router's own (the GenAI conventions name the rest). */
export const SVC_ATTRIBUTES = Object.freeze({
  modelGroup: 'svc.model_group',
  modelId: 'svc.model_id',
  attempts: 'svc.attempts',
  attempt: 'svc.attempt.number',
  reason: 'svc.attempt.reason',
  previousError: 'svc.attempt.previous_error',
  outcome: 'svc.attempt.outcome',
  cacheHit: 'svc.cache_hit',
  fallback: 'svc.fallback',
  cost: 'svc.response_cost',
  stream: 'svc.stream',
});
