import { describe, expect, it } from 'vitest';
import { APIConnectionError, TimeoutError } from '../../../src/errors/classes.js';
import { requestFault } from '../../../src/errors/request-fault.js';
import { createProviderRuntime } from '../../../src/providers/shared/provider-runtime.js';
import type { Call, Step } from '../../../src/router/call.js';
import { attemptLayer } from '../../../src/router/layers/attempt.js';
import { executeLayer } from '../../../src/router/layers/execute.js';
import { DeadlineQueue } from '../../../src/shared/deadline-queue.js';
import {
  drive,
  endpoint,
  fakeCall,
  fakeClock,
  group,
  pickingStrategy,
  recordingOutcomes,
} from './fixtures.js';

const a = endpoint('a');
/** The real innermost step below the attempt, on this clock. */
const executeOn = (now: () => number) =>
  executeLayer({
    now,
    maxResponseBytes: undefined,
    providers: createProviderRuntime(),
    deadlines: new DeadlineQueue(),
    onWarning() {},
  });

function setUp(overrides: Partial<Call<string>> = {}, step: Partial<Step> = {}) {
  const clock = fakeClock();
  const { channel, reported } = recordingOutcomes();
  const driven = drive(attemptLayer({ outcomes: channel, now: clock.now })(executeOn(clock.now)));
  const attempt = <T>(c: Call<T>) => driven(c, { endpoint: a, ...step });
  const call = fakeCall(group([a]), overrides);
  return { attempt, call, reported, clock };
}

const networkError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('attempt layer', () => {
  it('returns the result with its endpoint, timings and attempt count, and reports nothing before settle', async () => {
    const { attempt, call, reported, clock } = setUp({
      operation: async () => {
        clock.advance(40);
        return 'hello';
      },
    });
    const result = await attempt(call);
    expect(result).toMatchObject({ result: 'hello', endpoint: a, attempts: 1 });
    expect(result.firstMs - result.startMs).toBe(40);
    expect(call.history.attempts).toBe(1);
    expect(reported).toEqual([]);
  });

  it('reports a settled success once, with its usage and response; a second settle is ignored', async () => {
    const strategy = pickingStrategy();
    const { attempt, call, reported, clock } = setUp({ stream: true }, { strategy });
    const result = await attempt(call);
    clock.advance(100);
    result.settle({ usage: { total_tokens: 12 }, response: 'the response', cost: 0.5 });
    result.settle({ error: new APIConnectionError('late') });
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({
      kind: 'success',
      endpoint: a,
      group: call.group,
      strategy,
      request: call.request,
      stream: true,
      attempts: 1,
      usage: { total_tokens: 12 },
      response: 'the response',
      cost: 0.5,
    });
    expect(reported[0]!.endMs - reported[0]!.startMs).toBe(100);
  });

  it('reports a stream that failed after it opened as a failure, with its error', async () => {
    const { attempt, call, reported } = setUp();
    const error = new APIConnectionError('stream cut');
    (await attempt(call)).settle({ error });
    expect(reported.map((o) => [o.kind, o.error])).toEqual([['failure', error]]);
  });

  it('reports a caller that left early as aborted', async () => {
    const { attempt, call, reported } = setUp();
    (await attempt(call)).settle({ aborted: true });
    expect(reported.map((o) => o.kind)).toEqual(['aborted']);
  });

  it('turns a network error into an APIConnectionError, reported as a failure and excluded for the call', async () => {
    const { attempt, call, reported } = setUp({
      operation: () => Promise.reject(networkError('ECONNRESET', 'socket hang up')),
    });
    const error = await attempt(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({
      message: 'openai/gpt-4o request failed: connection reset (ECONNRESET)',
      provider: 'openai',
      model: 'gpt-4o',
      modelId: 'a',
    });
    expect(call.history.failures).toEqual([error]);
    expect(call.history.excluded).toEqual(new Set(['a']));
    expect(call.history.timedOut).toBeUndefined();
    expect(call.history.attempts).toBe(1);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ kind: 'failure', error, attempts: 1, excluded: new Set(['a']) });
  });

  it('marks a deployment that timed out so the call never tries it again', async () => {
    const { attempt, call } = setUp({
      operation: () => Promise.reject(networkError('UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error')),
    });
    await expect(attempt(call)).rejects.toBeInstanceOf(TimeoutError);
    expect(call.history.timedOut).toEqual(new Set(['a']));
    expect(call.history.excluded).toEqual(new Set(['a']));
  });

  it("reports a caller's abort as aborted and rethrows the caller's own reason", async () => {
    const controller = new AbortController();
    const reason = new Error('the user left');
    const { attempt, call, reported } = setUp({
      signal: controller.signal,
      operation: () => {
        controller.abort(reason);
        return Promise.reject(networkError('UND_ERR_ABORTED', 'aborted'));
      },
    });
    await expect(attempt(call)).rejects.toBe(reason);
    expect(reported.map((o) => o.kind)).toEqual(['aborted']);
    expect(call.history.failures).toEqual([]);
    expect(call.history.excluded).toBeUndefined();
  });

  it('tells onAbortedAttempt of an attempt the abort ended, not of one begun after it', async () => {
    const told: string[] = [];
    const onAbortedAttempt = (attempt: { model_id: string }) => told.push(attempt.model_id);
    const underWay = new AbortController();
    const first = setUp({
      signal: underWay.signal,
      onAbortedAttempt,
      operation: () => {
        underWay.abort(new Error('the user left'));
        return Promise.reject(networkError('UND_ERR_ABORTED', 'aborted'));
      },
    });
    await expect(first.attempt(first.call)).rejects.toThrow('the user left');
    const before = new AbortController();
    before.abort(new Error('the user left'));
    const late = setUp({
      signal: before.signal,
      onAbortedAttempt,
      operation: () => Promise.reject(networkError('UND_ERR_ABORTED', 'aborted')),
    });
    await expect(late.attempt(late.call)).rejects.toThrow('the user left');
    expect(told).toEqual(['a']);
  });

  it("reports a request's own fault as aborted and rethrows it: it says nothing about the deployment", async () => {
    const fault = requestFault('messages', new TypeError('Do not know how to serialize a BigInt'));
    const { attempt, call, reported } = setUp({ operation: () => Promise.reject(fault) });
    await expect(attempt(call)).rejects.toBe(fault);
    expect(reported.map((o) => o.kind)).toEqual(['aborted']);
    expect(call.history.failures).toEqual([]);
    expect(call.history.excluded).toBeUndefined();
  });

  it('counts attempts across the calls of one request', async () => {
    const { attempt, call } = setUp({
      operation: () => Promise.reject(networkError('ECONNREFUSED', 'refused')),
    });
    await attempt(call).catch(() => undefined);
    await attempt(call).catch(() => undefined);
    expect(call.history.attempts).toBe(2);
    expect(call.history.failures).toHaveLength(2);
  });
});
