import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestProxy, type TestProxy } from '../proxy/harness.js';

// registered globally (with the async context manager) in this file only
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

describe('a traced proxy request', () => {
  let t: TestProxy;
  beforeAll(async () => {
    provider.register();
    t = await startTestProxy('pglite');
  });
  afterAll(async () => {
    await t.close();
    await provider.shutdown();
    trace.disable();
  });

  it('has its trace id as call id, in x-svc-call-id and the spend row, with the router spans below its span', async () => {
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...t.admin, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const callId = res.headers.get('x-svc-call-id')!;
    expect(callId).toMatch(/^[0-9a-f]{32}$/);

    await eventually(() => {
      const names = exporter.getFinishedSpans().map((s) => s.name);
      expect(names).toContain('POST /v1/chat/completions');
    });
    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === callId);
    const server = spans.find((s) => s.kind === SpanKind.SERVER)!;
    const call = spans.find((s) => s.kind === SpanKind.INTERNAL)!;
    const attempt = spans.find((s) => s.kind === SpanKind.CLIENT)!;
    expect(server.attributes).toMatchObject({
      'http.route': '/v1/chat/completions',
      'http.response.status_code': 200,
    });
    expect(call.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(attempt.parentSpanContext?.spanId).toBe(call.spanContext().spanId);

    await eventually(async () => {
      const rows = (await (await fetch(`${t.url}/spend/logs`, { headers: t.admin })).json()) as Array<{
        call_id: string;
      }>;
      expect(rows.map((r) => r.call_id)).toContain(callId);
    });
  });

  it('continues the caller’s trace from a traceparent header', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`${t.url}/health`, {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    await res.text();
    expect(res.headers.get('x-svc-call-id')).toBe(traceId);
  });
});
