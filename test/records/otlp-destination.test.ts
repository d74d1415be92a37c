import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Router } from '../../src/index.js';
import { deployment, USER, useMock } from '../helpers.js';
import { type Receiver, startReceiver, until } from '../support/receivers.js';

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}
interface Span {
  traceId: string;
  spanId: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  status: { code?: number; message?: string };
}
interface Export {
  resourceSpans: Array<{
    resource: { attributes: KeyValue[] };
    scopeSpans: Array<{ scope: { name: string }; spans: Span[] }>;
  }>;
}

const attributes = (span: Span) => Object.fromEntries(span.attributes.map((a) => [a.key, a.value]));
const spansOf = (collector: Receiver): Span[] =>
  collector.received.flatMap((r) =>
    (JSON.parse(r.body) as Export).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)),
  );

const mock = useMock();
let collector: Receiver;
beforeAll(async () => {
  collector = await startReceiver();
});
beforeEach(() => {
  collector.received.length = 0;
});
afterAll(async () => {
  await collector.close();
});

function routerFor(extra: Record<string, unknown> = {}) {
  return new Router(
    [deployment(mock, 'a', { input_cost_per_token: 0.000001, output_cost_per_token: 0.000002 })],
    {
      num_retries: 0,
      callbacks: [
        {
          type: 'otlp',
          endpoint: `${collector.url}/v1/traces`,
          headers: { Authorization: 'Basic cGs6c2s=' },
          flush_interval: 0.02,
          ...extra,
        },
      ],
    },
  );
}

describe('otlp destination', () => {
  it('POSTs OTLP/HTTP JSON traces to the endpoint as given, with its headers', async () => {
    const router = routerFor();
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await until(() => expect(collector.received).toHaveLength(1));
    await router.close();
    const [request] = collector.received;
    expect(request?.path).toBe('/v1/traces');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.authorization).toBe('Basic cGs6c2s=');
    const body = JSON.parse(request!.body) as Export;
    expect(body.resourceSpans[0]?.resource.attributes).toEqual([
      { key: 'service.name', value: { stringValue: 'svc-router' } },
    ]);
    expect(body.resourceSpans[0]?.scopeSpans[0]?.scope.name).toBe('@svc/router');
  });

  it('sends one CLIENT span per call, named `{operation} {model}`, with hex ids and nanosecond times', async () => {
    const router = routerFor();
    const started = Date.now();
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.aembedding({ model: 'gpt-4o', input: 'hi' });
    await router.close();
    const spans = spansOf(collector);
    expect(spans.map((s) => s.name)).toEqual(['chat gpt-4o', 'embeddings gpt-4o']);
    for (const span of spans) {
      expect(span.kind).toBe(3);
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
      const start = Number(BigInt(span.startTimeUnixNano) / 1_000_000n);
      expect(start).toBeGreaterThanOrEqual(started - 1);
      expect(BigInt(span.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(span.startTimeUnixNano));
    }
  });

  it('carries the record as attributes: GenAI convention names where they exist, svc.* for the rest', async () => {
    const router = routerFor();
    await router.acompletion({ model: 'gpt-4o', messages: USER, user: 'end-user-7' });
    await router.close();
    const [span] = spansOf(collector);
    expect(attributes(span!)).toMatchObject({
      'gen_ai.operation.name': { stringValue: 'chat' },
      'gen_ai.request.model': { stringValue: 'gpt-4o' },
      'gen_ai.provider.name': { stringValue: 'openai' },
      'gen_ai.usage.input_tokens': { intValue: expect.stringMatching(/^\d+$/) },
      'gen_ai.usage.output_tokens': { intValue: expect.stringMatching(/^\d+$/) },
      'http.response.status_code': { intValue: '200' },
      'svc.call_id': { stringValue: expect.any(String) },
      'svc.model_group': { stringValue: 'gpt-4o' },
      'svc.model_id': { stringValue: 'a' },
      'svc.status': { stringValue: 'success' },
      'svc.cost': { doubleValue: expect.any(Number) },
      'svc.end_user': { stringValue: 'end-user-7' },
      'svc.latency_ms': { intValue: expect.stringMatching(/^\d+$/) },
      'svc.stream': { boolValue: false },
    });
    expect(Number(attributes(span!)['svc.cost']?.doubleValue)).toBeGreaterThan(0);
    expect(span?.status).toEqual({});
    expect(attributes(span!)).not.toHaveProperty('error.type');
  });

  it("carries the request's metadata.tags as an OTLP string array (svc.tags)", async () => {
    const router = routerFor();
    await router.acompletion({ model: 'gpt-4o', messages: USER, metadata: { tags: ['checkout', 'prod'] } });
    await router.close();
    const [span] = spansOf(collector);
    expect(attributes(span!)['svc.tags']).toEqual({
      arrayValue: { values: [{ stringValue: 'checkout' }, { stringValue: 'prod' }] },
    });
  });

  it('marks a failed call with an error status and error.type', async () => {
    mock.setBehavior('/a', { status: 429, error: { message: 'slow down' } });
    const router = routerFor();
    await expect(router.acompletion({ model: 'gpt-4o', messages: USER })).rejects.toThrow();
    await router.close();
    const [span] = spansOf(collector);
    expect(span?.status).toEqual({ code: 2, message: 'rate_limit' });
    expect(attributes(span!)).toMatchObject({
      'error.type': { stringValue: 'rate_limit' },
      'svc.status': { stringValue: 'failure' },
      'http.response.status_code': { intValue: '429' },
    });
  });

  it('names the resource with service_name', async () => {
    const router = routerFor({ service_name: 'gateway-eu' });
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    const body = JSON.parse(collector.received[0]!.body) as Export;
    expect(body.resourceSpans[0]?.resource.attributes[0]?.value).toEqual({ stringValue: 'gateway-eu' });
  });
});
