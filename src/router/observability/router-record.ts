import { randomUUID } from 'node:crypto';
import { tagsOfRequest } from '../../checks/tag-filter.js';
import { RouterError } from '../../errors/router-error.js';
import type { CallRecord } from '../../records/call-record.js';
import type { Call, RoutedFacts, Settlement } from '../call.js';
import type { CallTrace } from './call-trace.js';
import { GEN_AI_OPERATIONS } from './gen-ai.js';

/** What a record says of any call, served or not. */
function callFields<T>(call: Call<T>, trace: CallTrace | undefined, endMs: number) {
  return {
    call_id: randomUUID(),
    operation: GEN_AI_OPERATIONS[call.kind],
    model: call.model,
    stream: call.stream,
    start_time: new Date(call.startMs),
    end_time: new Date(endMs),
    latency_ms: endMs - call.startMs,
    end_user: typeof call.request.user === 'string' ? call.request.user : null,
    trace_id: trace?.span.spanContext().traceId ?? null,
    tags: tagsOrNull(tagsOfRequest(call.request)),
  };
}

const tagsOrNull = (tags: readonly string[]): readonly string[] | null => (tags.length > 0 ? tags : null);

function errorCode(error: unknown): string {
  if (RouterError.isInstance(error)) return error.code;
  return error instanceof Error && error.name === 'AbortError' ? 'aborted' : 'internal_error';
}

/**
 * The record of a call that produced a result, once it settled: a success, or for a stream one that
 * failed or was abandoned after its first chunk. Never a key or message content.
 */
export function settledRecord<T>(
  call: Call<T>,
  trace: CallTrace | undefined,
  routed: RoutedFacts,
  s: Settlement,
  endMs: number,
): CallRecord {
  const { deployment } = routed.endpoint;
  const failed = s.error !== undefined || s.aborted === true;
  return {
    ...callFields(call, trace, endMs),
    model_group: deployment.modelName,
    model_id: deployment.id,
    provider: deployment.provider,
    status: failed ? 'failure' : 'success',
    error_code: s.error ? s.error.code : s.aborted ? 'aborted' : null,
    http_status: s.error ? s.error.status : s.aborted ? null : 200,
    prompt_tokens: s.usage?.prompt_tokens ?? 0,
    completion_tokens: s.usage?.completion_tokens ?? 0,
    total_tokens: s.usage?.total_tokens ?? 0,
    cost: s.cost ?? 0,
    cache_hit: routed.cacheHit === true,
    attempts: routed.attempts,
    time_to_first_token_ms: call.stream ? routed.firstMs - call.startMs : null,
  };
}

/** The record of a call that failed before any result (after its retries and fallbacks). */
export function failedRecord<T>(
  call: Call<T>,
  trace: CallTrace | undefined,
  error: unknown,
  endMs: number,
): CallRecord {
  const routerError = RouterError.isInstance(error) ? error : undefined;
  const deployment = call.history.endpoint?.deployment;
  return {
    ...callFields(call, trace, endMs),
    model_group: deployment?.modelName ?? call.group.name,
    model_id: routerError?.modelId ?? deployment?.id ?? null,
    provider: routerError?.provider ?? deployment?.provider ?? null,
    status: 'failure',
    error_code: errorCode(error),
    http_status: routerError?.status ?? null,
    prompt_tokens: 0,
    completion_tokens: 0,
    total_tokens: 0,
    cost: 0,
    cache_hit: false,
    attempts: call.history.attempts,
    time_to_first_token_ms: null,
  };
}
