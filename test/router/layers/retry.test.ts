import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  NoDeploymentsAvailableError,
  RateLimitError,
  TimeoutError,
} from '../../../src/errors/classes.js';
import { requestFault } from '../../../src/errors/request-fault.js';
import type { Call } from '../../../src/router/call.js';
import { type RetryOptions, retryLayer } from '../../../src/router/layers/retry.js';
import {
  cool,
  drive,
  endpoint,
  fakeCall,
  fakeClock,
  group,
  noDeployments,
  type Step,
  scriptedNext,
  serverError,
  tracker,
} from './fixtures.js';

const a = endpoint('a');
const b = endpoint('b');

function setUp(steps: Step[], options: Partial<RetryOptions> = {}) {
  const cooldowns = tracker();
  const clock = fakeClock();
  const { next, seen } = scriptedNext(...steps);
  const retry = drive(
    retryLayer(
      {
        numRetries: 2,
        retryPolicy: undefined,
        retryAfterMs: 0,
        maxFallbacks: 5,
        weightedFailover: () => false,
        ...options,
      },
      { tracker: cooldowns, now: clock.now, random: () => 0 },
    )(next),
  );
  const call = (overrides: Partial<Call<string>> = {}) => fakeCall(group([a, b]), overrides);
  return { retry, call, seen, tracker: cooldowns };
}

describe('retry layer', () => {
  it('answers with the first success without retrying', async () => {
    const { retry, call, seen } = setUp(['first']);
    expect((await retry(call())).result).toBe('first');
    expect(seen).toHaveLength(1);
  });

  it('retries a retryable error and answers with the retry', async () => {
    const { retry, call, seen } = setUp([serverError('a'), 'second']);
    expect((await retry(call())).result).toBe('second');
    expect(seen).toHaveLength(2);
  });

  it('retries up to num_retries times, then throws the last error', async () => {
    const errors = [serverError('a', 'one'), serverError('b', 'two'), serverError('a', 'three')];
    const { retry, call, seen } = setUp(errors, { numRetries: 2 });
    await expect(retry(call())).rejects.toBe(errors[2]);
    expect(seen).toHaveLength(3);
  });

  it("takes the request's num_retries over the router's", async () => {
    const { retry, call, seen } = setUp([serverError('a'), serverError('a'), serverError('a')], {
      numRetries: 5,
    });
    await expect(retry(call({ numRetries: 1 }))).rejects.toThrow('a failed');
    expect(seen).toHaveLength(2);
  });

  it('never retries with num_retries 0', async () => {
    const error = serverError('a');
    const { retry, call, seen } = setUp([error], { numRetries: 0 });
    await expect(retry(call())).rejects.toBe(error);
    expect(seen).toHaveLength(1);
  });

  it('never retries a non-retryable error', async () => {
    const error = new AuthenticationError('invalid api key', { modelId: 'a' });
    const { retry, call, seen } = setUp([error]);
    await expect(retry(call())).rejects.toBe(error);
    expect(seen).toHaveLength(1);
  });

  it("never retries a request's own fault", async () => {
    const fault = requestFault('messages', new TypeError('cyclic structure'));
    const { retry, call, seen } = setUp([fault]);
    await expect(retry(call())).rejects.toBe(fault);
    expect(seen).toHaveLength(1);
  });

  it("never retries after the caller aborted, and throws the caller's reason", async () => {
    const controller = new AbortController();
    const reason = new Error('the user left');
    const { retry, call, seen } = setUp([
      () => {
        controller.abort(reason);
        return reason;
      },
    ]);
    await expect(retry(call({ signal: controller.signal }))).rejects.toBe(reason);
    expect(seen).toHaveLength(1);
  });

  it("throws the caller's own abort reason, whatever it is, when the caller aborts during a retry", async () => {
    const controller = new AbortController();
    const { retry, call, seen } = setUp([
      serverError('a'),
      () => {
        controller.abort('the user left');
        throw 'the user left';
      },
    ]);
    await expect(retry(call({ signal: controller.signal }))).rejects.toBe('the user left');
    expect(seen).toHaveLength(2);
  });

  it('returns a retry that answered as the caller aborted, so its attempt can still be settled', async () => {
    const controller = new AbortController();
    const { retry, call } = setUp([
      serverError('a'),
      () => {
        controller.abort(new Error('the user left'));
        return 'answered';
      },
    ]);
    expect((await retry(call({ signal: controller.signal }))).result).toBe('answered');
  });

  it('gives each error class its retry_policy count over num_retries', async () => {
    const limit = () => new RateLimitError('slow down', { modelId: 'a' });
    const { retry, call, seen } = setUp([limit(), limit(), limit(), limit(), limit()], {
      numRetries: 0,
      retryPolicy: { RateLimitErrorRetries: 3 },
    });
    await expect(retry(call())).rejects.toBeInstanceOf(RateLimitError);
    expect(seen).toHaveLength(4);
  });

  it('retries a class that is otherwise never retried when retry_policy asks for it', async () => {
    const { retry, call, seen } = setUp([new BadRequestError('flaky validation'), 'ok'], {
      retryPolicy: { BadRequestErrorRetries: 1 },
    });
    expect((await retry(call())).result).toBe('ok');
    expect(seen).toHaveLength(2);
  });

  it('holds a class to fewer retries than num_retries when retry_policy says so', async () => {
    const timeout = () => new TimeoutError('no answer', { modelId: 'a' });
    const { retry, call, seen } = setUp([timeout(), timeout(), timeout()], {
      numRetries: 2,
      retryPolicy: { TimeoutErrorRetries: 1 },
    });
    await expect(retry(call())).rejects.toBeInstanceOf(TimeoutError);
    expect(seen).toHaveLength(2);
  });

  it('throws the last real failure, not "no deployments", when the tier has nothing left after one', async () => {
    const failure = serverError('a');
    const on = group([a, b]);
    const { retry, call, seen } = setUp([failure, noDeployments(on)]);
    await expect(retry(call())).rejects.toBe(failure);
    expect(seen).toHaveLength(2);
  });

  it('never retries a "no deployments" error met on the first attempt', async () => {
    const none = noDeployments(group([a, b]));
    const { retry, call, seen } = setUp([none]);
    await expect(retry(call())).rejects.toBeInstanceOf(NoDeploymentsAvailableError);
    expect(seen).toHaveLength(1);
  });

  it('plans a jittered backoff for a failed deployment that may still be picked', async () => {
    const { retry, call, seen } = setUp([serverError('a')]);
    await retry(call());
    // random() = 0 takes half of the first 50 ms step
    expect(seen[1]?.backoff).toEqual({ id: 'a', waitMs: 25 });
  });

  it("plans the provider's retry-after for a rate limited deployment", async () => {
    const { retry, call, seen } = setUp([
      new RateLimitError('slow down', { modelId: 'a', retryAfterMs: 2_000 }),
    ]);
    await retry(call());
    expect(seen[1]?.backoff).toEqual({ id: 'a', waitMs: 2_000 });
  });

  it('plans no backoff for a deployment that is cooling: it will not be picked again', async () => {
    const { retry, call, seen, tracker } = setUp([
      () => {
        cool(tracker, a);
        return serverError('a');
      },
    ]);
    await retry(call());
    expect(seen[1]?.backoff).toBeUndefined();
  });

  it('plans no backoff after a timeout: that deployment is never tried again by the call', async () => {
    const { retry, call, seen } = setUp([new TimeoutError('no answer', { modelId: 'a' })]);
    await retry(call());
    expect(seen[1]?.backoff).toBeUndefined();
  });

  it('fails at once with a planned rate limit that select rethrows because its wait cannot fit', async () => {
    const limit = new RateLimitError('slow down', { modelId: 'a', retryAfterMs: 30_000 });
    const { retry, call, seen } = setUp([
      limit,
      () => limit, // select rethrows the planned error itself
    ]);
    await expect(retry(call())).rejects.toBe(limit);
    expect(seen).toHaveLength(2);
  });

  describe('with weighted failover', () => {
    const failover = { weightedFailover: () => true, numRetries: 0, maxFallbacks: 2 };

    it('bounds the hops of an async call by max_fallbacks', async () => {
      const errors = [serverError('a', 'one'), serverError('b', 'two'), serverError('c', 'three'), 'never'];
      const { retry, call, seen } = setUp(errors, failover);
      await expect(retry(call())).rejects.toBe(errors[2]);
      expect(seen).toHaveLength(3);
    });

    it('leaves a sync call to num_retries', async () => {
      const { retry, call, seen } = setUp([serverError('a'), 'never'], failover);
      await expect(retry(call({ asyncEntry: false }))).rejects.toThrow('a failed');
      expect(seen).toHaveLength(1);
    });

    it('plans no backoff for a deployment the call already excluded', async () => {
      const { retry, call, seen } = setUp(
        [
          (routed) => {
            routed.history.excluded = new Set(['a']);
            return serverError('a');
          },
        ],
        failover,
      );
      await retry(call());
      expect(seen[1]?.backoff).toBeUndefined();
    });
  });
});
