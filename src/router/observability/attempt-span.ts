import { context, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { AttemptOutcome } from '../outcomes.js';
import { SVC_ATTRIBUTES as SVC } from './call-trace.js';
import { errorType, genAiProviderName } from './gen-ai.js';

/**
 * Why an attempt was made: the call's first, a hedge racing a slow one, another after a failure, or
 * one on a fallback group.
 */
function reasonOf(o: AttemptOutcome): 'initial' | 'hedge' | 'retry' | 'fallback' {
  if (o.hedged) return 'hedge';
  if (o.attempts <= 1) return 'initial';
  return o.group.name === o.request.model ? 'retry' : 'fallback';
}

/**
 * Records one finished attempt of a traced call as a child span of the call's span, after the fact
 * (its start and end times are the attempt's own): the deployment, the outcome and status, why it was
 * made (and after which error), tokens. A cache hit or an untraced call makes no span.
 */
export function recordAttemptSpan(tracer: Tracer, o: AttemptOutcome): void {
  const callTrace = o.trace;
  if (!callTrace || o.kind === 'cache_hit') return;
  const { deployment, target } = o.endpoint;
  const provider = genAiProviderName(deployment.provider);
  const parent = trace.setSpan(context.active(), callTrace.span);
  const span = tracer.startSpan(
    `${callTrace.operation} ${target.model}`,
    { kind: SpanKind.CLIENT, startTime: o.startMs },
    parent,
  );
  span.setAttributes({
    'gen_ai.operation.name': callTrace.operation,
    'gen_ai.request.model': target.model,
    'gen_ai.provider.name': provider,
    'gen_ai.system': provider,
    [SVC.modelGroup]: deployment.modelName,
    [SVC.modelId]: deployment.id,
    [SVC.attempt]: o.attempts,
    [SVC.reason]: reasonOf(o),
    [SVC.outcome]: o.kind,
  });
  // the failure before this attempt: for a failure, its own error is the last of the call's failures
  const before = o.kind === 'failure' ? o.failures.length - 2 : o.failures.length - 1;
  if (o.attempts > 1 && before >= 0) span.setAttribute(SVC.previousError, errorType(o.failures[before]));
  const model = (o.response as { model?: unknown } | null | undefined)?.model;
  if (typeof model === 'string') span.setAttribute('gen_ai.response.model', model);
  if (o.usage?.prompt_tokens !== undefined)
    span.setAttribute('gen_ai.usage.input_tokens', o.usage.prompt_tokens);
  if (o.usage?.completion_tokens !== undefined)
    span.setAttribute('gen_ai.usage.output_tokens', o.usage.completion_tokens);
  if (o.kind === 'failure' && o.error) {
    span.setAttribute('error.type', errorType(o.error));
    span.setAttribute('http.response.status_code', o.error.status);
    span.setStatus({ code: SpanStatusCode.ERROR, message: o.error.message });
  } else if (o.kind === 'success') {
    span.setAttribute('http.response.status_code', 200);
  }
  span.end(o.endMs);
}
