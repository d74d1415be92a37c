import { describe, expect, it } from 'vitest';
import { RateLimitError, TimeoutError } from '../../src/index.js';
import { useMock } from '../helpers.js';
import { ask, deployment, recordingRouter, sleep } from './helpers.js';

const mock = useMock();

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

describe('a stream its caller stops reading', () => {
  // a long answer on a deployment with one slot; the caller reads one chunk and then nothing
  const unreadStream = async (settings: Record<string, unknown> = {}) => {
    // about 2,000 chunks 5 ms apart: the upstream streams for 10 s unless the stream is closed
    mock.setBehavior('/a', { content: 'w '.repeat(6000), stream: { chunkDelayMs: 5 } });
    const recorded = recordingRouter([deployment(mock, 'a', { max_parallel_requests: 1 })], {
      stream_timeout: 0.5,
      ...settings,
    });
    const stream = (await ask(recorded.router, 'gpt-4o', {
      stream: true,
    })) as unknown as AsyncIterable<unknown>;
    const reader = stream[Symbol.asyncIterator]();
    await reader.next();
    return { ...recorded, reader };
  };

  it('gives its slot back after stream_timeout: the next call on a one-slot deployment is served', async () => {
    const { router, reader } = await unreadStream();
    const started = performance.now();
    const next = await ask(router, 'gpt-4o', { timeout: 2 });
    expect(next._hidden_params.model_id).toBe('a');
    expect(performance.now() - started).toBeLessThan(1500);
    await reader.return?.();
    await router.close();
  });

  it('counts nothing against the deployment: no failure, no cooldown', async () => {
    const { router, reader, cooldowns } = await unreadStream({ allowed_fails: 0 });
    await ask(router, 'gpt-4o', { timeout: 2 });
    await reader.next().catch(() => undefined);
    expect(router.getDeployments()[0]).toMatchObject({ state: 'ok', failures_this_minute: 0, in_flight: 0 });
    expect(cooldowns).toEqual([]);
    await router.close();
  });

  it('aborts its upstream request', async () => {
    const { router, reader } = await unreadStream();
    await ask(router, 'gpt-4o', { timeout: 2 });
    for (let i = 0; i < 150 && mock.inFlight > 0; i++) await sleep(20);
    expect(mock.inFlight).toBe(0);
    await reader.return?.();
    await router.close();
  });

  it('tells the caller who comes back why it was closed', async () => {
    const { router, reader } = await unreadStream();
    await ask(router, 'gpt-4o', { timeout: 2 });
    const error = await reader.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(
      'openai/gpt-4o stream timed out: not read for stream_timeout (0.5 s) since the previous chunk',
    );
    await router.close();
  });

  it('still counts an upstream that stalls while the caller waits', async () => {
    mock.setBehavior('/a', { stream: { stallAfter: 2 } });
    const { router } = recordingRouter([deployment(mock, 'a', { max_parallel_requests: 1 })], {
      stream_timeout: 0.5,
    });
    const stream = (await ask(router, 'gpt-4o', { stream: true })) as unknown as AsyncIterable<unknown>;
    const error = await (async () => {
      for await (const _ of stream) {
        // read as fast as it comes
      }
    })().catch((e: unknown) => e);
    expect((error as Error).message).toContain('no event for stream_timeout (0.5 s) after the previous one');
    expect(router.getDeployments()[0]).toMatchObject({ failures_this_minute: 1, in_flight: 0 });
    await router.close();
  });
});
