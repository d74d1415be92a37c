import type { IncomingMessage } from 'node:http';
import { context, propagation, type Span, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { newCallId } from '../http/call-id.js';

/** A server span per HTTP request, when an OpenTelemetry SDK records them. */
export interface RequestTracing {
  /**
   * Starts the request's server span and makes its call id, when the request arrives (fastify's
   * `genReqId`): a new one (`newCallId`), traced or not. The trace id (`spanOf(raw)`) is not a call id: every call
   * of a trace, the caller's `traceparent` continued, shares it.
   */
  callId(raw: IncomingMessage): string;
  /** The server span of a request, if one records. */
  spanOf(raw: IncomingMessage): Span | undefined;
  /** Ends the request's span with its route pattern and status. */
  end(raw: IncomingMessage, route: string | undefined, status: number): void;
}

/**
 * Server spans over `tracer`, continuing a caller's `traceparent` when the registered propagator reads
 * one. Spans are kept per raw request (a WeakMap of this instance: nothing global).
 */
export function requestTracing(tracer: Tracer): RequestTracing {
  const spans = new WeakMap<IncomingMessage, Span>();
  return {
    callId(raw) {
      const parent = propagation.extract(context.active(), raw.headers);
      const span = tracer.startSpan(
        raw.method ?? 'HTTP',
        {
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': raw.method ?? '', 'url.path': (raw.url ?? '').split('?')[0] },
        },
        parent,
      );
      const callId = newCallId();
      if (span.isRecording()) {
        spans.set(raw, span);
        // a trace holds many calls: the span names its own, as the spend row names the trace
        span.setAttribute('svc.call_id', callId);
      }
      return callId;
    },
    spanOf: (raw) => spans.get(raw),
    end(raw, route, status) {
      const span = spans.get(raw);
      if (!span) return;
      spans.delete(raw);
      if (route) {
        span.updateName(`${raw.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}
