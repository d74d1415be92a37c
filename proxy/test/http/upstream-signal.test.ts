import { describe, expect, it } from 'vitest';
import { UpstreamSignal } from '../../src/http/upstream-signal.js';

describe('UpstreamSignal', () => {
  it('tells each listener once, with the reason set, when it aborts', () => {
    const signal = new UpstreamSignal();
    const seen: unknown[] = [];
    signal.addEventListener('abort', () => seen.push(signal.reason));
    const reason = new Error('the client closed the connection');
    signal.abort(reason);
    signal.abort(new Error('later'));
    expect([signal.aborted, signal.reason, seen]).toEqual([true, reason, [reason]]);
  });

  it('does not tell a listener removed before the abort', () => {
    const signal = new UpstreamSignal();
    let told = 0;
    const listener = () => told++;
    signal.addEventListener('abort', listener);
    signal.removeEventListener('abort', listener);
    signal.abort(new Error('gone'));
    expect(told).toBe(0);
  });

  it('does not tell a listener added after the abort, as an AbortSignal does not', () => {
    const signal = new UpstreamSignal();
    signal.abort(new Error('gone'));
    let told = 0;
    signal.addEventListener('abort', () => told++);
    expect(told).toBe(0);
  });
});
