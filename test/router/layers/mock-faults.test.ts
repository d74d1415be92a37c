import { describe, expect, it } from 'vitest';
import { InternalServerError, RateLimitError } from '../../../src/errors/classes.js';
import type { Call, Step } from '../../../src/router/call.js';
import { mockFaultsLayer } from '../../../src/router/layers/mock-faults.js';
import { drive, endpoint, fakeCall, group, scriptedNext } from './fixtures.js';

const A = group([endpoint('a', { group: 'A' })]);
const B = group([endpoint('b', { group: 'B' })]);

function setUp(request: Record<string, unknown>, step: Partial<Step> = {}) {
  const { next, seen } = scriptedNext('served');
  const faults = drive(mockFaultsLayer(next));
  return {
    faults: (call: Call<string>) => faults(call, step),
    call: fakeCall(A, { request: { model: 'A', ...request } }),
    seen,
  };
}

describe('mock faults layer', () => {
  it('answers mock_testing_rate_limit_error as a rate limit of the group, calling nothing', async () => {
    const { faults, call, seen } = setUp({ mock_testing_rate_limit_error: true });
    const error = await faults(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({
      message: 'mock_testing_rate_limit_error is set: A answered as if rate limited (no provider was called)',
      model: 'A',
      status: 429,
    });
    expect(seen).toEqual([]);
  });

  it('answers mock_testing_fallbacks as a retryable failure of the group, calling nothing', async () => {
    const { faults, call, seen } = setUp({ mock_testing_fallbacks: true });
    const error = await faults(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({
      message: 'mock_testing_fallbacks is set: A answered as if it failed (no provider was called)',
      model: 'A',
      retryable: true,
    });
    expect(seen).toEqual([]);
  });

  it('lets the fallback groups of the requested one be called for real', async () => {
    const { faults, call, seen } = setUp({ mock_testing_fallbacks: true }, { group: B, tier: B.tiers[0]! });
    expect((await faults(call)).result).toBe('served');
    expect(seen.map((s) => s.group)).toEqual(['B']);
  });

  it.each([
    ['no testing field', {}],
    [
      'a testing field that is not exactly true',
      { mock_testing_fallbacks: 'true', mock_testing_rate_limit_error: 1 },
    ],
  ])('passes a request with %s on', async (_, request) => {
    const { faults, call, seen } = setUp(request);
    expect((await faults(call)).result).toBe('served');
    expect(seen).toHaveLength(1);
  });
});
