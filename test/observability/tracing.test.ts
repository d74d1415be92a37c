import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Router } from '../../src/index.js';
import { deployment, USER, useMock } from '../helpers.js';

// the SDK is registered globally in this file only: the router finds it through @opentelemetry/api
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const mock = useMock();

beforeAll(async () => {
  trace.setGlobalTracerProvider(provider);
});
beforeEach(() => {
  exporter.reset();
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
});

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

function failingPrimaryRouter(): Router {
  mock.setBehavior('/a', { status: 500 });
  mock.setBehavior('/b', { status: 500 });
  return new Router(
    [
      deployment(mock, 'a'),
      deployment(mock, 'b'),
      deployment(mock, 'c', { model: 'openai/gpt-4o-mini' }, 'backup'),
    ],
    { num_retries: 1, fallbacks: [{ 'gpt-4o': ['backup'] }], allowed_fails: 10 },
  );
}

describe('tracing with an OpenTelemetry SDK registered', () => {
  it('makes one call span with a child per attempt for a call that retried and fell back', async () => {
    const router = failingPrimaryRouter();
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    expect(res._hidden_params.model_id).toBe('c');

    const spans = exporter.getFinishedSpans();
    const calls = spans.filter((s) => s.kind === SpanKind.INTERNAL);
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    expect(call.name).toBe('chat gpt-4o');
    expect(parentOf(call)).toBeUndefined();
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.provider.name': 'openai',
      'svc.model_group': 'backup',
      'svc.model_id': 'c',
      'svc.attempts': 3,
      'svc.fallback': true,
      'svc.cache_hit': false,
    });

    const attempts = spans
      .filter((s) => s.kind === SpanKind.CLIENT)
      .sort(
        (x, y) => Number(x.attributes['svc.attempt.number']) - Number(y.attributes['svc.attempt.number']),
      );
    expect(attempts.map((s) => parentOf(s))).toEqual(Array(3).fill(call.spanContext().spanId));
    expect(attempts.map((s) => s.spanContext().traceId)).toEqual(Array(3).fill(call.spanContext().traceId));
    expect(attempts.map((s) => s.attributes['svc.attempt.reason'])).toEqual(['initial', 'retry', 'fallback']);
    expect(attempts.map((s) => s.attributes['svc.attempt.outcome'])).toEqual([
      'failure',
      'failure',
      'success',
    ]);
    expect(
      attempts
        .map((s) => s.attributes['svc.model_id'])
        .slice(0, 2)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(attempts[0]!.attributes).toMatchObject({
      'error.type': 'InternalServerError',
      'http.response.status_code': 500,
      'gen_ai.request.model': 'gpt-4o',
    });
    expect(attempts[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempts[1]!.attributes['svc.attempt.previous_error']).toBe('InternalServerError');
    expect(attempts[2]!.attributes).toMatchObject({
      'svc.model_group': 'backup',
      'svc.model_id': 'c',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': expect.any(Number),
      'gen_ai.usage.output_tokens': expect.any(Number),
      'svc.attempt.previous_error': 'InternalServerError',
    });
    expect(attempts[2]!.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it('marks a hedge attempt with reason hedge', async () => {
    // both slow: whichever is picked first is raced by a hedge on the other, and answers first
    mock.setBehavior('/a', { delayMs: 150 });
    mock.setBehavior('/b', { delayMs: 150 });
    const router = new Router([deployment(mock, 'a'), deployment(mock, 'b')], { hedge_after: 0.03 });
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    const attempts = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.CLIENT);
    const reasons = attempts.map((s) => s.attributes['svc.attempt.reason']);
    expect(reasons.sort()).toEqual(['hedge', 'initial']);
  });

  it('marks the call span failed with error.type when every attempt fails', async () => {
    mock.setBehavior('/a', { status: 500 });
    const router = new Router([deployment(mock, 'a')], { num_retries: 0 });
    await expect(router.acompletion({ model: 'gpt-4o', messages: USER })).rejects.toThrow();
    await router.close();
    const call = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.INTERNAL)!;
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes['error.type']).toBe('InternalServerError');
  });

  it('records a cache hit on the call span, with no attempt span', async () => {
    const router = new Router([deployment(mock, 'a')], { cache_responses: true });
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    exporter.reset();
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    expect(spans[0]!.attributes).toMatchObject({ 'svc.cache_hit': true, 'svc.attempts': 0 });
  });

  it('ends a streamed call span when the stream ends, with its usage', async () => {
    const router = new Router([deployment(mock, 'a')]);
    const stream = await router.acompletion({
      model: 'gpt-4o',
      messages: USER,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.INTERNAL)).toHaveLength(0);
    for await (const _ of stream) {
      // read to the end
    }
    await router.close();
    const call = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.INTERNAL)!;
    expect(call.attributes['svc.stream']).toBe(true);
    expect(call.attributes['gen_ai.usage.output_tokens']).toEqual(expect.any(Number));
  });
});
