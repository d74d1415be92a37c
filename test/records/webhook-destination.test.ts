import { describe, expect, it } from 'vitest';
import { Router } from '../../src/index.js';
import type { CallRecord } from '../../src/records/call-record.js';
import { deployment, USER, useMock } from '../helpers.js';
import { type Answer, startReceiver, until } from '../support/receivers.js';

const mock = useMock();

async function withWebhook(answer: Answer, entry: Record<string, unknown> = {}) {
  const hook = await startReceiver(answer);
  const router = new Router([deployment(mock, 'a')], {
    num_retries: 0,
    callbacks: [{ type: 'webhook', url: `${hook.url}/calls?token=abc`, flush_interval: 0.02, ...entry }],
  });
  const records = () => hook.received.flatMap((r) => JSON.parse(r.body) as CallRecord[]);
  return { hook, router, records };
}

describe('webhook destination', () => {
  it('POSTs each batch as a JSON array of records, with the entry headers', async () => {
    const { hook, router, records } = await withWebhook(() => 200, {
      headers: { Authorization: 'Bearer hook-token' },
      batch_size: 2,
      flush_interval: 60,
    });
    for (let i = 0; i < 5; i++) await router.acompletion({ model: 'gpt-4o', messages: USER });
    await until(() => expect(records()).toHaveLength(4));
    await router.close(); // sends the last, partial batch
    await hook.close();
    expect(hook.received.map((r) => (JSON.parse(r.body) as unknown[]).length)).toEqual([2, 2, 1]);
    expect(hook.received[0]).toMatchObject({
      path: '/calls?token=abc',
      headers: { authorization: 'Bearer hook-token', 'content-type': 'application/json' },
    });
    expect(new Set(records().map((r) => r.call_id)).size).toBe(5);
  });

  it('sends a record with the call’s fields and timings, never its key or messages', async () => {
    const { hook, router, records } = await withWebhook(() => 200);
    await router.acompletion({ model: 'gpt-4o', messages: [{ role: 'user', content: 'secret plans' }] });
    await router.close();
    await hook.close();
    expect(records()).toEqual([
      {
        call_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        operation: 'chat',
        model: 'gpt-4o',
        model_group: 'gpt-4o',
        model_id: 'a',
        provider: 'openai',
        status: 'success',
        error_code: null,
        http_status: 200,
        prompt_tokens: expect.any(Number),
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
        cost: expect.any(Number),
        cache_hit: false,
        stream: false,
        attempts: 1,
        start_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        end_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        latency_ms: expect.any(Number),
        time_to_first_token_ms: null,
        end_user: null,
        trace_id: null,
        tags: null,
      },
    ]);
    expect(hook.bytes()).not.toContain('sk-test-a-0000');
    expect(hook.bytes()).not.toContain('secret plans');
  });

  it('times a stream’s first token and records it when the stream ends', async () => {
    const { hook, router, records } = await withWebhook(() => 200);
    const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
    for await (const _ of stream);
    await router.close();
    await hook.close();
    const [record] = records();
    expect(record).toMatchObject({ stream: true, status: 'success' });
    expect(record?.time_to_first_token_ms).toBeGreaterThanOrEqual(0);
    expect(record?.time_to_first_token_ms).toBeLessThanOrEqual(Number(record?.latency_ms));
  });

  it('retries a batch the webhook answered with a 500, then delivers it once', async () => {
    const { hook, router, records } = await withWebhook((n) => (n === 0 ? 500 : 200));
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    // counted once the webhook's answer is read, a moment after it has the request
    await until(
      () =>
        expect(router.metrics().call_records).toEqual([
          { destination: 'webhook', delivered: 1, dropped: 0, failed: 0, retries: 1, pending: 0 },
        ]),
      5000,
    );
    expect(hook.received).toHaveLength(2);
    expect(hook.received[1]?.body).toBe(hook.received[0]?.body);
    await router.close();
    await hook.close();
    expect(records()).toHaveLength(2);
  });

  it('gives up a batch the webhook refuses with a 400, counting it as failed', async () => {
    const { hook, router } = await withWebhook(() => 400);
    await router.acompletion({ model: 'gpt-4o', messages: USER });
    await until(() => expect(router.metrics().call_records[0]?.failed).toBe(1));
    await router.close();
    await hook.close();
    expect(hook.received).toHaveLength(1);
  });

  it('records a failed call once, after its retries', async () => {
    mock.setBehavior('/a', { status: 500, error: { message: 'down' } });
    const hook = await startReceiver();
    const router = new Router([deployment(mock, 'a')], {
      num_retries: 2,
      callbacks: [{ type: 'webhook', url: hook.url, flush_interval: 0.02 }],
    });
    await expect(router.acompletion({ model: 'gpt-4o', messages: USER })).rejects.toThrow();
    await router.close();
    await hook.close();
    const records = hook.received.flatMap((r) => JSON.parse(r.body) as CallRecord[]);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 'failure', model_id: 'a', http_status: 500, attempts: 3 });
  });
});
