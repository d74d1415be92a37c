import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { DeadlineQueue } from '../../src/shared/deadline-queue.js';

const queues: DeadlineQueue[] = [];
function queue(): DeadlineQueue {
  const q = new DeadlineQueue();
  queues.push(q);
  return q;
}
afterEach(() => {
  for (const q of queues.splice(0)) q.close();
});

/** When each name fired, in ms since the test started. */
function recorder() {
  const start = performance.now();
  const fired: { name: string; at: number }[] = [];
  const now = () => performance.now() - start;
  return { fired, now, fire: (name: string) => () => fired.push({ name, at: now() }) };
}

describe('DeadlineQueue', () => {
  it('fires a deadline once its duration has passed, not before', async () => {
    const { fired, fire } = recorder();
    queue().set(30, fire('a'));
    await sleep(10);
    expect(fired).toEqual([]);
    await sleep(50);
    expect(fired.map((f) => f.name)).toEqual(['a']);
    expect(fired[0]!.at).toBeGreaterThanOrEqual(29);
  });

  it('never fires a cancelled deadline', async () => {
    const { fired, fire } = recorder();
    queue().set(20, fire('a')).cancel();
    await sleep(50);
    expect(fired).toEqual([]);
  });

  it('fires the deadlines of one duration in the order they were set, skipping cancelled ones', async () => {
    const { fired, fire, now } = recorder();
    const q = queue();
    q.set(30, fire('first'));
    const second = q.set(30, fire('second'));
    await sleep(10);
    const thirdSetAt = now();
    q.set(30, fire('third'));
    second.cancel();
    await sleep(60);
    expect(fired.map((f) => f.name)).toEqual(['first', 'third']);
    // the third was set later: it fires its own 30 ms after it was set, not with the first (measured
    // from its own setting: on a loaded machine the first may itself fire late)
    expect(fired[1]!.at - thirdSetAt).toBeGreaterThanOrEqual(29);
  });

  it('does not let a cancelled earliest deadline delay the next one', async () => {
    const { fired, fire } = recorder();
    const q = queue();
    const head = q.set(30, fire('head'));
    await sleep(10);
    q.set(30, fire('next'));
    head.cancel();
    await sleep(60);
    expect(fired.map((f) => f.name)).toEqual(['next']);
    expect(fired[0]!.at).toBeLessThan(70);
  });

  it('keeps durations apart: a short deadline set after a long one fires first', async () => {
    const { fired, fire } = recorder();
    const q = queue();
    q.set(60, fire('long'));
    q.set(20, fire('short'));
    await sleep(100);
    expect(fired.map((f) => f.name)).toEqual(['short', 'long']);
  });

  it('fires deadlines of many different durations (past those it keeps lists for)', async () => {
    const { fired, fire } = recorder();
    const q = queue();
    for (let ms = 10; ms < 90; ms++) q.set(ms, fire(String(ms)));
    await sleep(150);
    expect(fired).toHaveLength(80);
  });

  it('takes a deadline set again from inside a firing one', async () => {
    const { fired, fire } = recorder();
    const q = queue();
    q.set(20, () => {
      fire('a')();
      q.set(20, fire('b'));
    });
    await sleep(80);
    expect(fired.map((f) => f.name)).toEqual(['a', 'b']);
  });

  it('fires nothing after close()', async () => {
    const { fired, fire } = recorder();
    const q = queue();
    q.set(20, fire('a'));
    q.close();
    await sleep(50);
    expect(fired).toEqual([]);
  });

  it('serves thousands of deadlines cancelled out of order, firing only the live one', async () => {
    const { fired, fire } = recorder();
    const q = queue();
    const live = q.set(40, fire('live'));
    const rest = Array.from({ length: 5000 }, (_, i) => q.set(40, fire(`n${i}`)));
    for (let i = rest.length - 1; i >= 0; i--) rest[i]!.cancel();
    await sleep(80);
    expect(fired.map((f) => f.name)).toEqual(['live']);
    live.cancel(); // after it fired: nothing happens
  });

  it('holds a bounded number of entries under a steady load that never lets it empty', () => {
    const q = queue();
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    // 50 calls in flight, ending in any order, for 200,000 calls
    const live = Array.from({ length: 50 }, () => q.set(60_000, () => {}));
    for (let i = 0; i < 200_000; i++) {
      const index = Math.floor(random() * live.length);
      live[index]!.cancel();
      live[index] = q.set(60_000, () => {});
    }
    expect(q.held.entries).toBeLessThan(3000);
    expect(q.held.slots).toBeLessThan(6000);
    for (const deadline of live) deadline.cancel();
    expect(q.held).toEqual({ entries: 0, slots: 0 });
  });
});
