import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RateLimitError } from '../../src/index.js';
import { type MockProvider, startMockProvider } from '../../src/testing/index.js';
import { ask, deployment, recordingRouter } from './helpers.js';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
beforeEach(() => mock.reset());
afterAll(() => mock.close());

const burst = (router: Parameters<typeof ask>[0], n: number, extra = {}) =>
  Promise.allSettled(Array.from({ length: n }, () => ask(router, 'gpt-4o', extra)));

describe('max_parallel_requests', () => {
  it('never has more than the limit in flight at the upstream, and serves every call', async () => {
    mock.setBehavior('/a', { delayMs: 40 });
    const { router } = recordingRouter([deployment(mock, 'a', { max_parallel_requests: 2 })]);
    const results = await burst(router, 7);
    await router.close();
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(mock.maxInFlight).toBe(2);
  });

  it('skips a full deployment for a peer with room', async () => {
    mock.setBehavior('/a', { delayMs: 60 });
    const { router } = recordingRouter([
      deployment(mock, 'a', { max_parallel_requests: 1 }),
      deployment(mock, 'b'),
    ]);
    const results = await burst(router, 3);
    await router.close();
    const ids = results.map((r) => (r.status === 'fulfilled' ? r.value._hidden_params.model_id : 'error'));
    expect(ids.sort()).toEqual(['a', 'b', 'b']);
  });

  it('fails with RateLimitError when no slot frees within the call’s timeout', async () => {
    mock.setBehavior('/a', { delayMs: 300 });
    const { router } = recordingRouter([deployment(mock, 'a', { max_parallel_requests: 1 })]);
    const first = ask(router);
    const second = await ask(router, 'gpt-4o', { timeout: 0.05 }).catch((e: unknown) => e);
    await first;
    await router.close();
    expect(second).toBeInstanceOf(RateLimitError);
    expect((second as Error).message).toContain('max_parallel_requests');
    expect(mock.hits('/a/')).toBe(1);
  });

  it('applies default_max_parallel_requests to deployments without their own limit', async () => {
    mock.setBehavior('/a', { delayMs: 40 });
    const { router } = recordingRouter([deployment(mock, 'a')], { default_max_parallel_requests: 3 });
    await burst(router, 8);
    await router.close();
    expect(mock.maxInFlight).toBe(3);
  });

  it('derives the limit from rpm when nothing else sets one', async () => {
    mock.setBehavior('/a', { delayMs: 40 });
    const { router } = recordingRouter([deployment(mock, 'a', { rpm: 2 })]);
    await burst(router, 6);
    await router.close();
    expect(mock.maxInFlight).toBe(2);
  });

  it('derives the limit from tpm / 1000 / 6 when only tpm is set', async () => {
    mock.setBehavior('/a', { delayMs: 40 });
    const { router } = recordingRouter([deployment(mock, 'a', { tpm: 18_000 })]);
    await burst(router, 6);
    await router.close();
    expect(mock.maxInFlight).toBe(3);
  });

  it('holds a stream’s slot until the stream is read to the end', async () => {
    mock.setBehavior('/a', { stream: { chunkDelayMs: 20 } });
    const { router } = recordingRouter([deployment(mock, 'a', { max_parallel_requests: 1 })]);
    const stream = await ask(router, 'gpt-4o', { stream: true });
    const waiting = ask(router, 'gpt-4o', { timeout: 0.05 }).catch((e: unknown) => e);
    expect(await waiting).toBeInstanceOf(RateLimitError);
    for await (const _ of stream as unknown as AsyncIterable<unknown>) {
      // drain
    }
    expect((await ask(router))._hidden_params.model_id).toBe('a');
    await router.close();
  });
});
