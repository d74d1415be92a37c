import { describe, expect, it } from 'vitest';
import type { Call, Handler, Routed, Step } from '../../../src/router/call.js';
import type { LatencyWindow } from '../../../src/router/latency-window.js';
import { hedgeLayer } from '../../../src/router/layers/hedge.js';
import { PlainSignal } from '../../support/plain-signal.js';
import { drive, endpoint, fakeCall, group, routed, serverError } from './fixtures.js';

const a = endpoint('a');
const b = endpoint('b');

/**
 * A `next` standing in for select and attempt: the first runner is served by `a` after `slowMs`, a
 * hedge by `b` at once (or fails, with `hedgeFails`); each counts its attempt in the shared history.
 */
function racing(slowMs: number, hedgeFails = false) {
  const steps: Step[] = [];
  const next: Handler = <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
    steps.push(step);
    const on = step.hedge ? b : a;
    call.history.attempts += 1;
    call.history.endpoint = on;
    const chosen = { ...step, endpoint: on };
    if (step.hedge && hedgeFails) {
      const error = serverError('b');
      call.history.failures.push(error);
      return Promise.reject(error);
    }
    const delay = step.hedge ? 0 : slowMs;
    return new Promise((resolve) =>
      setTimeout(() => resolve(routed(call, chosen, on.deployment.id as T)), delay),
    );
  };
  const hedge = drive(
    hedgeLayer(
      { after: 10, maxHedges: 1 },
      { now: () => performance.now(), latencies: new Map<string, LatencyWindow>() },
    )(next),
  );
  return { hedge, steps };
}

describe('hedge layer', () => {
  it('answers with a hedge that beats a slow attempt, aborting the slow one through its own signal', async () => {
    const { hedge, steps } = racing(200);
    const call = fakeCall(group([a, b]));
    const result = await hedge(call);
    expect(result.result).toBe('b');
    expect(steps.map((s) => s.hedge)).toEqual([false, true]);
    expect(steps[0]!.signal?.aborted).toBe(true);
    expect(steps[1]!.signal?.aborted).toBe(false);
  });

  it('shares the call and its history with every runner: nothing is copied or merged back', async () => {
    const { hedge } = racing(200);
    const call = fakeCall(group([a, b]));
    const before = { ...call };
    const result = await hedge(call);
    expect(result.attempts).toBe(2);
    expect(call.history.attempts).toBe(2);
    expect({ ...call }).toEqual(before);
  });

  it('keeps a hedge off the deployment already racing', async () => {
    const { hedge, steps } = racing(200);
    await hedge(fakeCall(group([a, b])));
    const admits = steps[1]!.admits!;
    expect([a, b].filter(admits).map((e) => e.deployment.id)).toEqual(['b']);
  });

  it("hands the caller's abort and its reason to every runner, and leaves no listener on the caller's signal", async () => {
    const steps: Step[] = [];
    // each runner waits until its own signal aborts
    const next: Handler = <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
      steps.push(step);
      call.history.attempts += 1;
      call.history.endpoint = step.hedge ? b : a;
      return new Promise((_, reject) =>
        step.signal?.addEventListener('abort', () => reject(step.signal?.reason)),
      );
    };
    const hedge = drive(
      hedgeLayer(
        { after: 10, maxHedges: 1 },
        { now: () => performance.now(), latencies: new Map<string, LatencyWindow>() },
      )(next),
    );
    const caller = new PlainSignal();
    const pending = hedge(fakeCall(group([a, b]), { signal: caller }));
    await new Promise((resolve) => setTimeout(resolve, 30)); // the hedge has started
    const reason = new Error('user cancelled');
    caller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(steps.map((s) => [s.hedge, s.signal?.aborted, s.signal?.reason])).toEqual([
      [false, true, reason],
      [true, true, reason],
    ]);
    expect(caller.listeners.size).toBe(0);
  });

  it('waits for the first attempt when the hedge fails', async () => {
    const { hedge } = racing(50, true);
    const result = await hedge(fakeCall(group([a, b])));
    expect(result.result).toBe('a');
  });
});
