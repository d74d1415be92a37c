import { performance } from 'node:perf_hooks';
import type { Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestTracing } from '../observability/request-tracing.js';
import { newCallId } from './call-id.js';

/** What the proxy tracks of each request, from its first byte to its reply. */
export interface CallState {
  /** Sent back as `x-svc-call-id`; the spend row's `call_id`. Unique per call (a UUID), traced or not. */
  callId: string;
  /** The W3C trace id of the request's span when it is traced (the caller's, from `traceparent`), else null. */
  traceId: string | null;
  /** The request's server span, when an OpenTelemetry SDK records it: the router's spans are its children. */
  span?: Span | undefined;
  /** Epoch ms at which the request arrived. */
  startedAt: number;
  /** `performance.now()` at arrival, for durations. */
  startedMark: number;
  /** Milliseconds spent inside the router (the upstream's time and the router's own). */
  routerMs: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    svc: CallState;
  }
}

/** Milliseconds the proxy itself added to the request: its whole time, less the time in the router. */
export function overheadMs(state: CallState, at = performance.now()): string {
  return Math.max(0, at - state.startedMark - state.routerMs).toFixed(2);
}

/**
 * Gives every request a call id and a clock, and every reply the `x-svc-call-id` and
 * `x-svc-overhead-ms` headers (streams set them themselves before their first byte). With `tracing`,
 * the call id is the request id it made; the trace id is the request span's. Several calls may share a
 * trace: a trace id is never a call id.
 */
export function trackCalls(app: FastifyInstance, now: () => number, tracing?: RequestTracing): void {
  app.decorateRequest('svc', null as unknown as CallState);
  // callback hooks, not async ones: an async hook costs a promise and a turn of jobs per request
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const span = tracing?.spanOf(request.raw);
    request.svc = {
      callId: tracing ? request.id : newCallId(),
      traceId: span ? span.spanContext().traceId : null,
      span,
      startedAt: now(),
      startedMark: performance.now(),
      routerMs: 0,
    };
    reply.header('x-svc-call-id', request.svc.callId);
    done();
  });
  app.addHook('onSend', (request, reply, _payload, done) => {
    reply.header('x-svc-overhead-ms', overheadMs(request.svc));
    done();
  });
}
