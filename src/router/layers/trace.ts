import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import {
  type Call,
  type Handler,
  type Layer,
  type Routed,
  type RoutedFacts,
  routedFacts,
  type Settlement,
  type Step,
} from '../call.js';
import { type CallTrace, SVC_ATTRIBUTES as SVC } from '../observability/call-trace.js';
import { errorType, GEN_AI_OPERATIONS, genAiProviderName } from '../observability/gen-ai.js';

export interface TraceDeps {
  tracer: Tracer;
  now(): number;
}

function responseModel(response: unknown): string | undefined {
  const model = (response as { model?: unknown } | null | undefined)?.model;
  return typeof model === 'string' ? model : undefined;
}

function finish<T>(trace: CallTrace, call: Call<T>, routed: RoutedFacts, s: Settlement, endMs: number): void {
  const { span } = trace;
  const { deployment } = routed.endpoint;
  span.setAttribute('gen_ai.provider.name', genAiProviderName(deployment.provider));
  span.setAttribute('gen_ai.system', genAiProviderName(deployment.provider));
  span.setAttribute(SVC.modelGroup, deployment.modelName);
  span.setAttribute(SVC.modelId, deployment.id);
  span.setAttribute(SVC.attempts, routed.attempts);
  span.setAttribute(SVC.cacheHit, routed.cacheHit === true);
  span.setAttribute(SVC.fallback, deployment.modelName !== call.model);
  const model = responseModel(s.response);
  if (model) span.setAttribute('gen_ai.response.model', model);
  if (s.usage?.prompt_tokens !== undefined)
    span.setAttribute('gen_ai.usage.input_tokens', s.usage.prompt_tokens);
  if (s.usage?.completion_tokens !== undefined)
    span.setAttribute('gen_ai.usage.output_tokens', s.usage.completion_tokens);
  if (s.cost !== undefined) span.setAttribute(SVC.cost, s.cost);
  if (s.error) {
    span.setAttribute('error.type', errorType(s.error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: s.error.message });
  }
  span.end(endMs);
}

/**
 * One span per call (`{operation} {model}`, GenAI semantic conventions), the parent of one span per
 * attempt (those are made from the outcome channel). It ends when the call settles (for streams: when
 * the stream ends) or fails. With no OpenTelemetry SDK registered the tracer hands out a span that
 * records nothing, and the call goes on untouched. Outermost in the call path, so a cache hit is seen
 * and call records (the next layer) carry the trace id.
 */
export function traceLayer(deps: TraceDeps): Layer {
  const { tracer, now } = deps;
  return (next: Handler) =>
    <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
      const operation = GEN_AI_OPERATIONS[call.kind];
      const span = tracer.startSpan(`${operation} ${call.model}`, {
        kind: SpanKind.INTERNAL,
        startTime: call.startMs,
      });
      // not recording (no SDK): no extra async frame, no attributes
      if (!span.isRecording()) return next(call, step);
      return traced(next, call, step, { span, operation }, now);
    };
}

async function traced<T>(
  next: Handler,
  call: Call<T>,
  step: Step,
  trace: CallTrace,
  now: () => number,
): Promise<Routed<T>> {
  const { span } = trace;
  span.setAttribute('gen_ai.operation.name', trace.operation);
  span.setAttribute('gen_ai.request.model', call.model);
  span.setAttribute(SVC.stream, call.stream);
  let routed: Routed<T>;
  try {
    routed = await next(call, { ...step, trace });
  } catch (error) {
    span.setAttribute(SVC.attempts, call.history.attempts);
    span.setAttribute('error.type', errorType(error));
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
    span.end(now());
    throw error;
  }
  const settle = routed.settle;
  const facts = routedFacts(routed);
  let ended = false;
  routed.settle = (s) => {
    settle(s);
    if (ended) return;
    ended = true;
    finish(trace, call, facts, s, now());
  };
  return routed;
}
