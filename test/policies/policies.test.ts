import { describe, expect, it } from 'vitest';
import { failureKind, shouldCool } from '../../src/cooldown/cooldown-rules.js';
import {
  AuthenticationError,
  BadRequestError,
  ContentPolicyViolationError,
  ContextWindowExceededError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
} from '../../src/index.js';
import { rateLimitBackoffMs } from '../../src/policies/backoff.js';
import { fallbacksFor, listedFor } from '../../src/policies/fallback-policy.js';
import { maxRetries, retriesFor } from '../../src/policies/retry-policy.js';

const policy = { allowedFails: 3, rateLimitAllowedFails: undefined, contentPolicyAllowedFails: undefined };
const counts = (
  over: Partial<{ calls: number; fails: number; rateLimitFails: number; policyFails: number }>,
) => ({
  calls: 1,
  fails: 1,
  rateLimitFails: 0,
  policyFails: 0,
  ...over,
});

describe('cooldown rules', () => {
  it('cools at once on 401, 404 and an upstream 408', () => {
    const upstream408 = new TimeoutError('x', { upstreamStatus: 408 });
    for (const error of [new AuthenticationError('x'), new NotFoundError('x'), upstream408]) {
      expect(shouldCool(error, 'fail', counts({}), policy)).toBe(true);
    }
  });

  it('counts a timeout the router enforced against allowed_fails instead of cooling at once', () => {
    const enforced = new TimeoutError('no answer within timeout (1 s)');
    expect(shouldCool(enforced, 'fail', counts({ calls: 1, fails: 1 }), policy)).toBe(false);
    expect(shouldCool(enforced, 'fail', counts({ calls: 4, fails: 4 }), policy)).toBe(true);
  });

  it('cools on failure allowed_fails + 1, not before', () => {
    const error = new InternalServerError('x');
    expect(shouldCool(error, 'fail', counts({ calls: 3, fails: 3 }), policy)).toBe(false);
    expect(shouldCool(error, 'fail', counts({ calls: 4, fails: 4 }), policy)).toBe(true);
  });

  it('cools above a 50% failure rate only from 5 calls on', () => {
    const error = new InternalServerError('x');
    const lenient = { ...policy, allowedFails: 100 };
    expect(shouldCool(error, 'fail', counts({ calls: 4, fails: 3 }), lenient)).toBe(false);
    expect(shouldCool(error, 'fail', counts({ calls: 6, fails: 3 }), lenient)).toBe(false);
    expect(shouldCool(error, 'fail', counts({ calls: 5, fails: 3 }), lenient)).toBe(true);
  });

  it('ignores bad requests and context window errors, and content policy unless its policy is set', () => {
    expect(failureKind(new BadRequestError('x'), policy)).toBeUndefined();
    expect(failureKind(new ContextWindowExceededError('x'), policy)).toBeUndefined();
    expect(failureKind(new ContentPolicyViolationError('x'), policy)).toBeUndefined();
    expect(
      failureKind(new ContentPolicyViolationError('x'), { ...policy, contentPolicyAllowedFails: 1 }),
    ).toBe('policy');
  });
});

describe('retry policy', () => {
  it('gives retryable errors num_retries and the rest none', () => {
    expect(retriesFor(new InternalServerError('x'), 2, undefined)).toBe(2);
    expect(retriesFor(new AuthenticationError('x'), 2, undefined)).toBe(0);
    expect(retriesFor(new ContextWindowExceededError('x'), 2, { BadRequestErrorRetries: 3 })).toBe(0);
  });

  it('lets retry_policy set a class’s retries', () => {
    expect(retriesFor(new RateLimitError('x'), 2, { RateLimitErrorRetries: 5 })).toBe(5);
    expect(retriesFor(new AuthenticationError('x'), 2, { AuthenticationErrorRetries: 1 })).toBe(1);
    expect(maxRetries(2, { RateLimitErrorRetries: 5 })).toBe(5);
  });
});

describe('rate limit backoff', () => {
  it('grows exponentially with jitter between half and all of each step', () => {
    expect(rateLimitBackoffMs(1, undefined, 0, () => 0)).toBe(125);
    expect(rateLimitBackoffMs(1, undefined, 0, () => 0.999999)).toBeCloseTo(250, 0);
    expect(rateLimitBackoffMs(3, undefined, 0, () => 0)).toBe(500);
    expect(rateLimitBackoffMs(20, undefined, 0, () => 1)).toBe(8000);
  });

  it('never waits less than the provider’s retry-after or the retry_after minimum', () => {
    expect(rateLimitBackoffMs(1, 2000, 0, () => 0)).toBe(2000);
    expect(rateLimitBackoffMs(1, undefined, 1500, () => 0)).toBe(1500);
  });
});

describe('fallback policy', () => {
  const settings = {
    fallbacks: [{ a: ['b'] }],
    context_window_fallbacks: [{ a: ['big'] }],
    content_policy_fallbacks: [{ a: ['lenient'] }],
    default_fallbacks: ['d'],
  };

  it('picks the list by error class', () => {
    expect(fallbacksFor('a', new InternalServerError('x'), settings, undefined)).toEqual(['b']);
    expect(fallbacksFor('a', new ContextWindowExceededError('x'), settings, undefined)).toEqual(['big']);
    expect(fallbacksFor('a', new ContentPolicyViolationError('x'), settings, undefined)).toEqual(['lenient']);
    expect(fallbacksFor('z', new InternalServerError('x'), settings, undefined)).toEqual(['d']);
  });

  it('never sends a content policy refusal to the general lists', () => {
    expect(fallbacksFor('z', new ContentPolicyViolationError('x'), settings, ['b'])).toEqual([]);
  });

  it('reads a `*` entry for models without their own', () => {
    expect(listedFor([{ '*': ['any'] }, { a: ['b'] }], 'a')).toEqual(['b']);
    expect(listedFor([{ '*': ['any'] }], 'q')).toEqual(['any']);
  });
});
