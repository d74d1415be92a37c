import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router } from '../../src/index.js';
import { deployment, USER, useMock } from '../helpers.js';
import { type Receiver, startHangingReceiver } from '../support/receivers.js';

const mock = useMock();
let hanging: Receiver;
beforeAll(async () => {
  hanging = await startHangingReceiver();
});
afterAll(async () => {
  await hanging.close();
});

/** How long one call takes (ms). */
async function timed(router: Router): Promise<number> {
  const started = performance.now();
  await router.acompletion({ model: 'gpt-4o', messages: USER });
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('a destination that accepts connections and never answers', () => {
  it('leaves call latency as it is and drops what does not fit the queue, counting it', async () => {
    const plain = new Router([deployment(mock, 'a')]);
    const hooked = new Router([deployment(mock, 'a')], {
      callbacks: [
        {
          type: 'webhook',
          url: hanging.url,
          batch_size: 10,
          flush_interval: 0.01,
          max_queue_size: 50,
          timeout: 60,
          max_retries: 0,
        },
      ],
    });
    for (let i = 0; i < 20; i++) await Promise.all([timed(plain), timed(hooked)]); // connections, JIT
    const before = hooked.metrics().call_records[0]!;
    // one call of each in turn (which goes first alternates), so a slower moment of a shared machine
    // weighs on both alike
    const base: number[] = [];
    const withHook: number[] = [];
    for (let i = 0; i < 200; i++) {
      if (i % 2 === 0) base.push(await timed(plain));
      withHook.push(await timed(hooked));
      if (i % 2 === 1) base.push(await timed(plain));
    }
    const after = hooked.metrics().call_records[0]!;

    expect(hanging.received.length).toBeGreaterThanOrEqual(1); // the POST is in, unanswered
    // 220 records: 50 fit the queue (the hung batch of 10 included), the rest were dropped as they came
    expect(before).toMatchObject({ delivered: 0, pending: 20, dropped: 0 });
    expect(after).toMatchObject({ delivered: 0, pending: 50, failed: 0, dropped: 170 });
    // a call that waited on delivery would take the send's 60 s timeout; the slack is the shared
    // machine's noise (medians of a few ms swing by several under load)
    expect(median(withHook)).toBeLessThan(median(base) * 2 + 5);

    // the hung send is cut when the destination goes away; close then gives up the rest at once
    await hanging.close();
    await Promise.all([plain.close(), hooked.close()]);
    expect(hooked.metrics().call_records[0]).toMatchObject({ pending: 0, failed: 50 });
  });
});
