import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from '../../src/checks/concurrency-limiter.js';
import { promptTokens } from '../../src/checks/context-window.js';
import { parallelLimitOf } from '../../src/checks/parallel-limit.js';
import { regionOf, requestedRegion } from '../../src/checks/region.js';
import { buildDeployments } from '../../src/config/build-deployments.js';
import { RateLimitError } from '../../src/index.js';

const dep = (params: Record<string, unknown>) =>
  buildDeployments(
    [{ model_name: 'm', svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test', ...params } }],
    {},
  )[0]!;

describe('parallel limit', () => {
  it('takes max_parallel_requests, then the router default, then rpm, then tpm/1000/6', () => {
    expect(parallelLimitOf(dep({ max_parallel_requests: 4, rpm: 100 }), 9)).toBe(4);
    expect(parallelLimitOf(dep({ rpm: 100 }), 9)).toBe(9);
    expect(parallelLimitOf(dep({ rpm: 100 }), undefined)).toBe(100);
    expect(parallelLimitOf(dep({ tpm: 60_000 }), undefined)).toBe(10);
    expect(parallelLimitOf(dep({ tpm: 100 }), undefined)).toBe(1);
    expect(parallelLimitOf(dep({}), undefined)).toBeUndefined();
  });
});

describe('region', () => {
  it('reads region_name, else infers eu from vertex_location or aws_region_name', () => {
    expect(regionOf(dep({ region_name: 'us' }))).toBe('us');
    expect(regionOf(dep({ vertex_location: 'europe-west4' }))).toBe('eu');
    expect(regionOf(dep({ aws_region_name: 'eu-central-1' }))).toBe('eu');
    expect(regionOf(dep({ aws_region_name: 'us-east-1' }))).toBeUndefined();
  });

  it('reads allowed_model_region from the request or its metadata', () => {
    expect(requestedRegion({ allowed_model_region: 'eu' })).toBe('eu');
    expect(requestedRegion({ metadata: { allowed_model_region: 'eu' } })).toBe('eu');
    expect(requestedRegion({})).toBeUndefined();
  });
});

describe('prompt tokens', () => {
  it('counts message text and a little framing per message', async () => {
    const n = await promptTokens({ messages: [{ role: 'user', content: 'hello world' }] });
    expect(n).toBeGreaterThan(2);
    expect(n).toBeLessThan(10);
  });
});

describe('concurrency limiter', () => {
  it('refuses a slot beyond the limit and frees it on release', () => {
    const limiter = new ConcurrencyLimiter(new Map([['a', 1]]));
    expect(limiter.tryAcquire('a')).toBe(true);
    expect(limiter.tryAcquire('a')).toBe(false);
    limiter.release('a');
    expect(limiter.tryAcquire('a')).toBe(true);
  });

  it('wakes a waiter when a slot frees, and times out with RateLimitError otherwise', async () => {
    const limiter = new ConcurrencyLimiter(new Map([['a', 1]]));
    limiter.tryAcquire('a');
    const waiting = limiter.waitForRoom('m', 1000, undefined);
    limiter.release('a');
    await expect(waiting).resolves.toBeUndefined();
    limiter.tryAcquire('a');
    await expect(limiter.waitForRoom('m', 20, undefined)).rejects.toBeInstanceOf(RateLimitError);
  });
});
