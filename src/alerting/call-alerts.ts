import { isRequestFault } from '../errors/request-fault.js';
import { RouterError } from '../errors/router-error.js';
import type { CallSignal } from '../shared/call-signal.js';
import { type AlertEvent, type AlertingSettings, DEFAULT_ALERTING_THRESHOLD_S } from './alert.js';
import { llmException, slowResponse } from './detect.js';

/** What an alert reads of an attempt's outcome (the router's `AttemptOutcome` is one). */
export interface AlertedAttempt {
  readonly kind: string;
  readonly endpoint: { readonly deployment: { readonly id: string; readonly modelName: string } };
  readonly request: Readonly<Record<string, unknown>>;
  readonly stream: boolean;
  readonly endMs: number;
  readonly callStartMs: number;
  readonly firstMs?: number | undefined;
  readonly error?: RouterError | undefined;
  readonly attempts: number;
  readonly failures: readonly RouterError[];
}

/** What an alert reads of a call that failed for good. */
export interface AlertedCall {
  readonly model: string;
  /** The group tried last. */
  readonly group: string;
  readonly stream: boolean;
  readonly signal: CallSignal | undefined;
  readonly attempts: number;
  readonly failures: readonly RouterError[];
  readonly startMs: number;
}

/**
 * The alert an attempt's outcome raises, if any. Only an attempt that produced the caller's result
 * counts (`firstMs` set): a slow one raises `slow_response`; a stream that failed after it opened
 * raises `llm_exception` (it is never retried, so the call failed). Attempts that failed before a
 * result belong to their call, which raises at most one alert when it fails for good.
 */
export function outcomeAlert(
  o: AlertedAttempt,
  settings: AlertingSettings,
  time: number,
): AlertEvent | undefined {
  if (o.firstMs === undefined) return undefined;
  const facts = {
    model: String(o.request.model),
    group: o.endpoint.deployment.modelName,
    modelId: o.endpoint.deployment.id,
    stream: o.stream,
    attempts: o.attempts,
    failures: o.failures,
  };
  if (o.kind === 'failure') {
    return llmException(
      { ...facts, failures: [...o.failures, o.error!] },
      o.error!,
      o.endMs - o.callStartMs,
      time,
    );
  }
  const thresholdMs = (settings.alerting_threshold ?? DEFAULT_ALERTING_THRESHOLD_S) * 1000;
  // what the caller waited for: a completion's result, a stream's first chunk
  const waitedMs = (o.stream ? o.firstMs : o.endMs) - o.callStartMs;
  return slowResponse(facts, waitedMs, thresholdMs, time);
}

/**
 * The `llm_exception` alert of a call that failed for good (after its retries and fallbacks), or
 * undefined when the failure says nothing about the models: the caller aborted, or the request could
 * not be sent at all.
 */
export function failedCallAlert(call: AlertedCall, error: unknown, time: number): AlertEvent | undefined {
  if (!RouterError.isInstance(error) || call.signal?.aborted || isRequestFault(error)) return undefined;
  const facts = {
    model: call.model,
    group: call.group,
    modelId: error.modelId ?? call.failures.at(-1)?.modelId ?? null,
    stream: call.stream,
    attempts: call.attempts,
    failures: call.failures,
  };
  return llmException(facts, error, time - call.startMs, time);
}
