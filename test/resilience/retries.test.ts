import { describe, expect, it } from 'vitest';
import { RateLimitError, type RouterError } from '../../src/index.js';
import { useMock } from '../helpers.js';
import { ask, deployment, recordingRouter, trail } from './helpers.js';

const mock = useMock();

const elapsed = async (fn: () => Promise<unknown>) => {
  const start = performance.now();
  await fn().catch(() => undefined);
  return performance.now() - start;
};

describe('retries', () => {
  it('makes num_retries more attempts, then throws the last error carrying the earlier ones', async () => {
    mock.setBehavior('/', { status: 500 });
    const { router } = recordingRouter(
      [deployment(mock, 'a'), deployment(mock, 'b'), deployment(mock, 'c')],
      {
        num_retries: 2,
        allowed_fails: 10,
      },
    );
    const error = (await ask(router).catch((e: unknown) => e)) as RouterError;
    await router.close();
    expect(mock.requests).toHaveLength(3);
    expect(error.name).toBe('InternalServerError');
    expect(error.attempts).toHaveLength(2);
  });

  it('tries a deployment that has not failed this call before retrying one that has', async () => {
    mock.setBehavior('/a', { status: 500 });
    const { router } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], { allowed_fails: 10 });
    const res = await ask(router);
    await router.close();
    expect(trail(mock)).toEqual(['a', 'b']);
    expect(res._hidden_params).toMatchObject({ model_id: 'b', attempts: 2 });
  });

  it('honours a request’s own num_retries', async () => {
    mock.setBehavior('/', { status: 500 });
    const { router } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], {
      num_retries: 3,
      allowed_fails: 10,
    });
    await ask(router, 'gpt-4o', { num_retries: 0 }).catch(() => undefined);
    await router.close();
    expect(mock.requests).toHaveLength(1);
  });

  it('waits a short jittered backoff before retrying a 5xx on the same deployment', async () => {
    mock.setBehavior('/a', { status: 500, failTimes: 1 });
    const { router } = recordingRouter([deployment(mock, 'a')]); // random 0: the shortest step, 25 ms
    const ms = await elapsed(() => ask(router));
    await router.close();
    expect(mock.hits('/a/')).toBe(2);
    expect(ms).toBeGreaterThanOrEqual(24);
    expect(ms).toBeLessThan(1000);
  });

  it('backs off before retrying a rate limit on the same deployment, honouring retry-after', async () => {
    mock.setBehavior('/a', { status: 429, failTimes: 1, headers: { 'retry-after-ms': '200' } });
    const { router } = recordingRouter([deployment(mock, 'a')]);
    expect(await elapsed(() => ask(router))).toBeGreaterThanOrEqual(195);
    await router.close();
  });

  it('waits at least retry_after before retrying a rate limit', async () => {
    mock.setBehavior('/a', { status: 429, failTimes: 1, headers: { 'retry-after-ms': '0' } });
    const { router } = recordingRouter([deployment(mock, 'a')], { retry_after: 0.3 });
    expect(await elapsed(() => ask(router))).toBeGreaterThanOrEqual(295);
    await router.close();
  });

  it('retries a rate-limited call on a peer at once when the limited deployment cooled', async () => {
    mock.setBehavior('/a', { status: 429, headers: { 'retry-after': '30' } });
    const { router } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')]);
    expect(await elapsed(() => ask(router))).toBeLessThan(100);
    await router.close();
    expect(trail(mock)).toEqual(['a', 'b']);
  });

  it('does not retry a rate limit whose wait would outlast the call’s timeout', async () => {
    mock.setBehavior('/a', { status: 429, headers: { 'retry-after': '5' } });
    const { router } = recordingRouter([deployment(mock, 'a')]);
    const error = await ask(router, 'gpt-4o', { timeout: 1 }).catch((e: unknown) => e);
    await router.close();
    expect(error).toBeInstanceOf(RateLimitError);
    expect(mock.hits('/a/')).toBe(1);
  });

  it('follows retry_policy per error class', async () => {
    mock.setBehavior('/a', { status: 401 });
    const { router } = recordingRouter([deployment(mock, 'a')], {
      retry_policy: { AuthenticationErrorRetries: 2 },
    });
    await ask(router).catch(() => undefined);
    expect(mock.hits('/a/')).toBe(3);
    mock.reset();
    mock.setBehavior('/a', { status: 429, headers: { 'retry-after-ms': '0' } });
    router.updateSettings({ retry_policy: { RateLimitErrorRetries: 0 } });
    await ask(router).catch(() => undefined);
    await router.close();
    expect(mock.hits('/a/')).toBe(1);
  });

  it('does not retry a bad request, a context window error or a content policy refusal by default', async () => {
    const { router } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')]);
    for (const error of [{}, { code: 'context_length_exceeded' }, { code: 'content_filter' }]) {
      mock.reset();
      mock.setBehavior('/', { status: 400, error });
      await ask(router).catch(() => undefined);
      expect(mock.requests).toHaveLength(1);
    }
    await router.close();
  });
});
