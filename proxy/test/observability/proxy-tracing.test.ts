import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, startTestProxy, type TestProxy } from '../harness.js';

// registered globally (with the async context manager) in this file only
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeAll(() => {
  provider.register();
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
});

// a call id of its own (http/call-id.ts): a version 7 UUID
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${CALLER_TRACE}-00f067aa0ba902b7-01`;
const CALL_COST = 10 * 0.000001 + 5 * 0.000002; // the mock's usage at the harness prices

type Row = { call_id: string; trace_id: string | null; cost: number };

describe.each(ENGINES)('a traced proxy request (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine);
    t.mock.setBehavior('/east', { usage: { prompt_tokens: 10, completion_tokens: 5 } });
  });
  afterAll(() => t.close());

  const chat = (headers: Record<string, string> = {}) =>
    fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...t.admin, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    });
  const spendRows = async () =>
    (await (await fetch(`${t.url}/spend/logs`, { headers: t.admin })).json()) as Row[];

  it('has a UUID call id and its trace id in the spend row, with the router spans below its span', async () => {
    const res = await chat();
    expect(res.status).toBe(200);
    await res.text();
    const callId = res.headers.get('x-svc-call-id')!;
    expect(callId).toMatch(UUID);

    let traceId = '';
    await eventually(() => {
      const server = exporter
        .getFinishedSpans()
        .find((s) => s.kind === SpanKind.SERVER && s.attributes['svc.call_id'] === callId);
      expect(server?.name).toBe('POST /v1/chat/completions');
      traceId = server!.spanContext().traceId;
    });
    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
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
      expect((await spendRows()).find((r) => r.call_id === callId)?.trace_id).toBe(traceId);
    });
  });

  it('continues the caller’s trace from a traceparent header, under a call id of its own', async () => {
    const res = await fetch(`${t.url}/health`, { headers: { traceparent: TRACEPARENT } });
    await res.text();
    expect(res.headers.get('x-svc-call-id')).toMatch(UUID);
    await eventually(() => {
      const server = exporter
        .getFinishedSpans()
        .find((s) => s.attributes['svc.call_id'] === res.headers.get('x-svc-call-id'));
      expect(server?.spanContext().traceId).toBe(CALLER_TRACE);
    });
  });

  it('gives four calls of one trace four call ids and four spend rows, each charged, each with the trace id', async () => {
    const generated = await fetch(`${t.url}/key/generate`, {
      method: 'POST',
      headers: { ...t.admin, 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    const { key, key_hash } = (await generated.json()) as { key: string; key_hash: string };
    const callIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await chat({ authorization: `Bearer ${key}`, traceparent: TRACEPARENT });
      expect(res.status).toBe(200);
      await res.text();
      callIds.push(res.headers.get('x-svc-call-id')!);
    }
    expect(new Set(callIds).size).toBe(4);
    await eventually(async () => {
      const rows = (await spendRows()).filter((r) => callIds.includes(r.call_id));
      expect(rows).toHaveLength(4);
      expect(rows.map((r) => r.trace_id)).toEqual(Array(4).fill(CALLER_TRACE));
    });
    const info = (await (await fetch(`${t.url}/key/info?key=${key_hash}`, { headers: t.admin })).json()) as {
      info: { spend: number };
    };
    expect(info.info.spend).toBeCloseTo(4 * CALL_COST, 12);
  });
});
