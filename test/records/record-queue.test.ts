import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../src/records/call-record.js';
import { DeliveryError, type RecordDestination } from '../../src/records/destination.js';
import { RecordQueue } from '../../src/records/record-queue.js';
import { until } from '../support/receivers.js';

function record(n: number): CallRecord {
  return {
    call_id: `call-${n}`,
    status: 'success',
    prompt_tokens: 1,
    completion_tokens: 1,
    total_tokens: 2,
    cost: 0,
    cache_hit: false,
    stream: false,
    start_time: new Date(0),
    end_time: new Date(1),
  };
}

/** A destination in memory: the batches it took, and how it answers each send. */
function memory(answer: (n: number) => 'ok' | 'fail' | 'refuse' | 'hang' = () => 'ok') {
  const batches: string[][] = [];
  let sends = 0;
  const destination: RecordDestination = {
    type: 'memory',
    send(records) {
      const how = answer(sends++);
      if (how === 'hang') return new Promise(() => undefined); // ignores its signal, never settles
      if (how === 'fail') return Promise.reject(new Error('status 500'));
      if (how === 'refuse') return Promise.reject(new DeliveryError('status 400', false));
      batches.push(records.map((r) => r.call_id));
      return Promise.resolve();
    },
  };
  return { destination, batches, sends: () => sends };
}

const fast = { retryMinMs: 1, retryMaxMs: 5 };

describe('RecordQueue', () => {
  it('sends a full batch at once, without waiting for the interval', async () => {
    const { destination, batches } = memory();
    const queue = new RecordQueue(destination, { batchSize: 3, flushIntervalMs: 60_000 });
    for (let i = 0; i < 3; i++) queue.add(record(i));
    await until(() => expect(batches).toEqual([['call-0', 'call-1', 'call-2']]));
    await queue.close();
  });

  it('sends a partial batch when the interval passes', async () => {
    const { destination, batches } = memory();
    const queue = new RecordQueue(destination, { batchSize: 100, flushIntervalMs: 20 });
    queue.add(record(0));
    expect(batches).toEqual([]);
    await until(() => expect(batches).toEqual([['call-0']]));
    expect(queue.stats()).toMatchObject({ delivered: 1, pending: 0, dropped: 0 });
    await queue.close();
  });

  it('retries a failed send with backoff and delivers the same batch', async () => {
    const { destination, batches } = memory((n) => (n < 2 ? 'fail' : 'ok'));
    const queue = new RecordQueue(destination, { batchSize: 2, ...fast });
    queue.add(record(0));
    queue.add(record(1));
    await until(() => expect(batches).toEqual([['call-0', 'call-1']]));
    expect(queue.stats()).toMatchObject({ delivered: 2, retries: 2, failed: 0 });
    await queue.close();
  });

  it('gives a batch up after max_retries and counts its records as failed', async () => {
    const problems: string[] = [];
    const { destination, sends } = memory(() => 'fail');
    const queue = new RecordQueue(destination, {
      batchSize: 2,
      maxRetries: 2,
      ...fast,
      onProblem: (m) => problems.push(m),
    });
    queue.add(record(0));
    queue.add(record(1));
    await until(() => expect(queue.stats()).toMatchObject({ failed: 2, pending: 0 }));
    expect(sends()).toBe(3);
    expect(problems).toEqual([expect.stringContaining('a batch of 2 was given up (status 500)')]);
    await queue.close();
  });

  it('never retries a send the destination refuses for good', async () => {
    const { destination, sends } = memory(() => 'refuse');
    const queue = new RecordQueue(destination, { batchSize: 1, ...fast });
    queue.add(record(0));
    await until(() => expect(queue.stats().failed).toBe(1));
    expect(sends()).toBe(1);
    await queue.close();
  });

  it('abandons a send that outlives its timeout, even one that ignores its signal', async () => {
    const { destination, batches } = memory((n) => (n === 0 ? 'hang' : 'ok'));
    const queue = new RecordQueue(destination, { batchSize: 1, timeoutMs: 30, ...fast });
    queue.add(record(0));
    await until(() => expect(batches).toEqual([['call-0']]));
    expect(queue.stats()).toMatchObject({ delivered: 1, retries: 1 });
    await queue.close();
  });

  it('drops and counts records beyond max_queue_size while the destination hangs', async () => {
    const { destination } = memory(() => 'hang');
    const queue = new RecordQueue(destination, { batchSize: 1, maxQueueSize: 5, timeoutMs: 60_000 });
    for (let i = 0; i < 50; i++) queue.add(record(i));
    expect(queue.stats()).toMatchObject({ pending: 5, dropped: 45, delivered: 0 });
    await queue.close({ deadlineMs: 20 });
  });

  it('sends what is left on close, every batch, without waiting for the interval', async () => {
    const { destination, batches } = memory();
    const queue = new RecordQueue(destination, { batchSize: 2, flushIntervalMs: 60_000 });
    for (let i = 0; i < 5; i++) queue.add(record(i));
    await queue.close();
    expect(batches.flat()).toEqual(['call-0', 'call-1', 'call-2', 'call-3', 'call-4']);
  });

  it('stops at the close deadline, counting what it could not send as dropped', async () => {
    const { destination } = memory(() => 'hang');
    const queue = new RecordQueue(destination, { batchSize: 1, flushIntervalMs: 60_000, timeoutMs: 60_000 });
    for (let i = 0; i < 3; i++) queue.add(record(i));
    const started = Date.now();
    const { undelivered } = await queue.close({ deadlineMs: 50 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(undelivered).toBe(3);
    expect(queue.stats()).toMatchObject({ pending: 0, failed: 1, dropped: 2 });
  });
});
