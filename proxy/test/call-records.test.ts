import type { CallRecord } from '@svc/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startHangingReceiver, startReceiver } from '../../test/support/receivers.js';
import { ENGINES, eventually, MASTER_KEY, startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';

const UPSTREAM_KEY = 'sk-upstream-east-0000'; // the harness's deployment key

describe.each(ENGINES)('call records from the proxy (%s)', (engine) => {
  let t: TestProxy;
  let hook: Receiver;
  let hanging: Receiver;
  beforeAll(async () => {
    hook = await startReceiver();
    hanging = await startHangingReceiver();
    t = await startTestProxy(engine, {
      svc_settings: {
        callbacks: [
          { type: 'webhook', url: hook.url, headers: { 'x-hook': 'h1' }, flush_interval: 0.02 },
          { type: 'webhook', url: hanging.url, max_queue_size: 2, timeout: 60, max_retries: 0 },
        ],
      },
    });
    t.mock.setBehavior('/east', { content: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } });
  });
  afterAll(async () => {
    await hanging.close(); // cuts the hung send: close() gives the rest up at once
    await t.close();
    await hook.close();
  });
  const { post, newKey } = client(() => t);
  const records = () => hook.received.flatMap((r) => JSON.parse(r.body) as CallRecord[]);
  const recordOf = (callId: string) => records().find((r) => r.call_id === callId);
  const chat = async (headers: Record<string, string>, extra: Record<string, unknown> = {}) => {
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'the plan' }], ...extra }),
    });
    await res.text();
    return { status: res.status, callId: res.headers.get('x-svc-call-id')! };
  };

  it('delivers one record per call carrying every field of its spend row', async () => {
    await post('/team/new', { team_id: 'records-team' });
    const key = await newKey({ team_id: 'records-team', user_id: 'u-7', key_alias: 'ci-key' });
    const { status, callId } = await chat(key.headers, { user: 'end-9' });
    expect(status).toBe(200);
    let row: Record<string, unknown> | undefined;
    await eventually(async () => {
      const rows = (await (await fetch(`${t.url}/spend/logs`, { headers: t.admin })).json()) as Array<
        Record<string, unknown>
      >;
      row = rows.find((r) => r.call_id === callId);
      expect(row).toBeDefined();
      expect(recordOf(callId)).toBeDefined();
    });
    const record = recordOf(callId)!;
    for (const [field, value] of Object.entries(row!)) {
      if (field.endsWith('_time')) expect(Date.parse(String(record[field]))).toBe(Date.parse(String(value)));
      else expect({ [field]: record[field] }).toEqual({ [field]: value });
    }
    expect(record).toMatchObject({
      key_hash: key.keyHash,
      key_alias: 'ci-key',
      team_id: 'records-team',
      user_id: 'u-7',
      end_user: 'end-9',
      model: 'gpt-4o',
      model_id: 'east',
      operation: 'chat',
      prompt_tokens: 10,
      completion_tokens: 5,
      status: 'success',
      time_to_first_token_ms: null,
    });
    expect(record.cost).toBeGreaterThan(0);
    expect(hook.received[0]?.headers['x-hook']).toBe('h1');
  });

  it('records each call once: the router makes none of its own', async () => {
    const before = records().length;
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await chat({ authorization: `Bearer ${MASTER_KEY}` })).callId);
    await eventually(() => expect(records().length).toBe(before + 3));
    expect(
      records()
        .slice(before)
        .map((r) => r.call_id),
    ).toEqual(ids);
  });

  it('sends no secret: neither the upstream key, the virtual key, the master key nor the messages', async () => {
    const key = await newKey({ key_alias: 'secret-check' });
    const { callId } = await chat(key.headers);
    await eventually(() => expect(recordOf(callId)).toBeDefined());
    const bytes = hook.bytes();
    for (const secret of [UPSTREAM_KEY, key.key, MASTER_KEY, 'the plan']) expect(bytes).not.toContain(secret);
  });

  it('times a stream’s first token', async () => {
    const { callId } = await chat({ authorization: `Bearer ${MASTER_KEY}` }, { stream: true });
    await eventually(() => expect(recordOf(callId)).toBeDefined());
    const record = recordOf(callId)!;
    expect(record.stream).toBe(true);
    expect(record.time_to_first_token_ms).toBeGreaterThanOrEqual(0);
    expect(record.time_to_first_token_ms).toBeLessThanOrEqual(Number(record.latency_ms));
  });

  it('counts deliveries and the hanging destination’s drops on /metrics', async () => {
    for (let i = 0; i < 5; i++) await chat({ authorization: `Bearer ${MASTER_KEY}` });
    await eventually(async () => {
      const text = await (await fetch(`${t.url}/metrics`, { headers: t.admin })).text();
      const value = (series: string) => Number(text.match(new RegExp(`^${series} (\\d+)$`, 'm'))?.[1] ?? -1);
      expect(value('svc_call_records_delivered_total{destination="webhook",index="0"}')).toBe(
        records().length,
      );
      expect(value('svc_call_records_pending{destination="webhook",index="1"}')).toBe(2);
      expect(value('svc_call_records_dropped_total{destination="webhook",index="1"}')).toBe(
        records().length - 2,
      );
      expect(value('svc_call_records_failed_total{destination="webhook",index="1"}')).toBe(0);
    });
  });
});
