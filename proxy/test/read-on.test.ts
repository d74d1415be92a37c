import { describe, expect, it } from 'vitest';
import { ReadOn } from '../src/http/read-on.js';

/** A call whose client can leave, recording each time its upstream is cancelled. */
function call() {
  let onGone: (() => void) | undefined;
  const stops: unknown[] = [];
  return {
    leave: () => onGone?.(),
    stops,
    abort: {
      whenGone: (listener: () => void) => {
        onGone = listener;
      },
      stopUpstream: (reason: unknown) => void stops.push(reason),
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ReadOn (reading a stream on after its client left)', () => {
  it('cancels the upstream once more than maxBytes were read after the client left', () => {
    const c = call();
    const readOn = new ReadOn(c.abort, { timeoutMs: 60_000, maxBytes: 100 });
    c.leave();
    expect(readOn.more(60)).toBe(true);
    expect(c.stops).toHaveLength(0);
    expect(readOn.more(60)).toBe(false);
    expect(c.stops).toHaveLength(1);
    readOn.stop();
  });

  it('cancels the upstream timeoutMs after the client left, not after it was made', async () => {
    const c = call();
    const readOn = new ReadOn(c.abort, { timeoutMs: 20, maxBytes: 1_000_000 });
    await sleep(40);
    expect(c.stops).toHaveLength(0);
    c.leave();
    await sleep(60);
    expect(c.stops).toHaveLength(1);
    expect(String(c.stops[0])).toContain('20 ms after the client left');
    readOn.stop();
  });

  it('cancels nothing once the stream is over', async () => {
    const c = call();
    const readOn = new ReadOn(c.abort, { timeoutMs: 20, maxBytes: 1_000_000 });
    c.leave();
    readOn.stop();
    await sleep(50);
    expect(c.stops).toHaveLength(0);
  });

  it('cancels the upstream at once when a shutdown cuts the connections while it reads on', () => {
    const c = call();
    const cut = new AbortController();
    const readOn = new ReadOn(c.abort, { timeoutMs: 60_000, maxBytes: 1_000_000, cut: cut.signal });
    c.leave();
    expect(c.stops).toHaveLength(0);
    cut.abort();
    expect(c.stops).toHaveLength(1);
    expect(String(c.stops[0])).toContain('shutting down');
    readOn.stop();
  });

  it('does not read on at all for a client cut by a shutdown', () => {
    const c = call();
    const cut = new AbortController();
    const readOn = new ReadOn(c.abort, { timeoutMs: 60_000, maxBytes: 1_000_000, cut: cut.signal });
    cut.abort();
    c.leave();
    expect(c.stops).toHaveLength(1);
    readOn.stop();
  });
});
