import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from '../../src/checks/concurrency-limiter.js';
import { parallelLimitOf } from '../../src/checks/parallel-limit.js';
import { regionOf, requestedRegion } from '../../src/checks/region.js';
import { loadTokenCounter, promptTokens, textTokens } from '../../src/checks/token-count.js';
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

  it('counts a long text in steps, letting the event loop run between them, to the same count', async () => {
    // 1000 characters without a surrogate pair: the steps cut where the slices do
    const unit = 'The quick brown fox jumps over the lazy dog, again and again. '.repeat(17).slice(0, 1000);
    let ranBetween = false;
    setImmediate(() => {
      ranBetween = true;
    });
    const n = await promptTokens({ messages: [{ role: 'user', content: unit.repeat(200) }] });
    const perUnit = await textTokens(unit);
    expect([n, ranBetween]).toEqual([4 + 200 * perUnit, true]);
  });

  it('lets the event loop run between many medium texts as it does within a long one', async () => {
    const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(800); // 45,600 characters
    let ranBetween = false;
    setImmediate(() => {
      ranBetween = true;
    });
    await promptTokens({ messages: [0, 1, 2].map(() => ({ role: 'user', content: text })) });
    expect(ranBetween).toBe(true);
  });

  it('counts the text of Responses API input items and of tool results, not only of parts', async () => {
    const words = 'one two three four five six seven eight nine ten';
    const asPart = await promptTokens({ input: [{ type: 'input_text', text: words }] });
    const asItem = await promptTokens({
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: words }] }],
    });
    const asToolResult = await promptTokens({
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: words }] }],
    });
    expect([asItem, asToolResult - 4]).toEqual([asPart, asPart]);
  });

  it('counts a short prompt without a turn of the event loop', async () => {
    await loadTokenCounter();
    let ranBetween = false;
    setImmediate(() => {
      ranBetween = true;
    });
    await promptTokens({
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: 'hi' },
      ],
    });
    expect(ranBetween).toBe(false);
  });
});

describe('concurrency limiter', () => {
  it('refuses a slot beyond the limit and frees it on release', () => {
    const limiter = new ConcurrencyLimiter();
    expect(limiter.tryAcquire('a', 1)).toBe(true);
    expect(limiter.tryAcquire('a', 1)).toBe(false);
    limiter.release('a');
    expect(limiter.tryAcquire('a', 1)).toBe(true);
  });

  it('counts calls in flight on deployments without a limit too', () => {
    const limiter = new ConcurrencyLimiter();
    limiter.tryAcquire('b', undefined);
    limiter.tryAcquire('b', undefined);
    expect(limiter.inFlight('b')).toBe(2);
    limiter.release('b');
    expect(limiter.inFlight('b')).toBe(1);
  });

  it('wakes a waiter when a slot frees, and fails with RateLimitError at the deadline otherwise', async () => {
    const limiter = new ConcurrencyLimiter();
    limiter.tryAcquire('a', 1);
    const waiting = limiter.waitForRoom('m', Date.now() + 1000, Date.now(), undefined);
    limiter.release('a');
    await expect(waiting).resolves.toBeUndefined();
    limiter.tryAcquire('a', 1);
    await expect(limiter.waitForRoom('m', Date.now() + 20, Date.now(), undefined)).rejects.toBeInstanceOf(
      RateLimitError,
    );
  });

  it('fails at once when the deadline has passed', async () => {
    const limiter = new ConcurrencyLimiter();
    await expect(limiter.waitForRoom('m', 100, 200, undefined)).rejects.toBeInstanceOf(RateLimitError);
  });
});
