import type { RouterError } from '../errors/router-error.js';
import type { AlertEvent, FailedAttempt } from './alert.js';
import { alertLine, oneLine } from './alert-line.js';

/** What an alert says about a call, whether it comes from an attempt's outcome or the call's end. */
export interface CallFacts {
  /** The model the caller asked for. */
  model: string;
  /** The group that served or failed last. */
  group: string;
  /** The deployment that served or failed last. */
  modelId: string | null;
  stream: boolean;
  attempts: number;
  /** The call's failed attempts so far, oldest first. */
  failures: readonly RouterError[];
}

/** One failed attempt as alerts and callbacks list it. */
export function failedAttempt(error: RouterError): FailedAttempt {
  return {
    model_id: error.modelId ?? null,
    error: error.name,
    status: error.status,
    message: oneLine(error.message),
  };
}

function alert(fields: Omit<AlertEvent, 'text'>): AlertEvent {
  return { ...fields, text: alertLine(fields) };
}

/**
 * A `slow_response` alert when the caller waited longer than `thresholdMs` (a completion: for its
 * result; a stream: for its first chunk), else undefined.
 */
export function slowResponse(
  facts: CallFacts,
  waitedMs: number,
  thresholdMs: number,
  time: number,
): AlertEvent | undefined {
  if (!(waitedMs > thresholdMs)) return undefined;
  return alert({
    type: 'slow_response',
    model: facts.model,
    model_group: facts.group,
    model_id: facts.modelId,
    duration_ms: waitedMs,
    stream: facts.stream,
    threshold_ms: thresholdMs,
    attempts: facts.attempts,
    failed_attempts: facts.failures.map(failedAttempt),
    time,
  });
}

/**
 * The `llm_exception` alert of a call that failed for good (after its retries and fallbacks, or a
 * stream after its first chunk). `error` is what the caller got; `failed_attempts` lists every failed
 * attempt (none when no deployment could be tried: all cooling).
 */
export function llmException(
  facts: CallFacts,
  error: RouterError,
  durationMs: number,
  time: number,
): AlertEvent {
  return alert({
    type: 'llm_exception',
    model: facts.model,
    model_group: facts.group,
    model_id: facts.modelId,
    duration_ms: durationMs,
    stream: facts.stream,
    error,
    attempts: facts.attempts,
    failed_attempts: facts.failures.map(failedAttempt),
    time,
  });
}
