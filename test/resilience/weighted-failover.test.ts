import { describe, expect, it } from 'vitest';
import { type CallbackKwargs, Router } from '../../src/index.js';
import { seededRandom } from '../../src/testing/index.js';
import { useMock } from '../helpers.js';
import { ask, deployment, recordingRouter, trail } from './helpers.js';

const mock = useMock();

const failover = { enable_weighted_failover: true, disable_cooldowns: true };

describe('weighted failover', () => {
  it('hops to a different peer after each retryable failure until one serves', async () => {
    for (const name of ['a', 'b', 'c', 'd']) mock.setBehavior(`/${name}/`, { status: 503 });
    const { router } = recordingRouter(
      ['a', 'b', 'c', 'd', 'e'].map((n) => deployment(mock, n)),
      {
        ...failover,
        num_retries: 0,
      },
    );
    const res = await ask(router);
    await router.close();
    expect(trail(mock)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(res._hidden_params).toMatchObject({ model_id: 'e', attempts: 5 });
  });

  it('accumulates the failed ids in metadata._failover_excluded_ids across hops', async () => {
    for (const name of ['a', 'b']) mock.setBehavior(`/${name}/`, { status: 503 });
    const seen: CallbackKwargs[] = [];
    const { router } = recordingRouter(
      ['a', 'b', 'c'].map((n) => deployment(mock, n)),
      {
        ...failover,
        callbacks: [{ logFailureEvent: (k: CallbackKwargs) => void seen.push(k) }],
      },
    );
    await ask(router, 'gpt-4o', { metadata: { trace: 't1' } });
    await new Promise((r) => setTimeout(r, 20));
    await router.close();
    expect(seen.map((k) => k.metadata)).toEqual([
      { trace: 't1', _failover_excluded_ids: ['a'] },
      { trace: 't1', _failover_excluded_ids: ['a', 'b'] },
    ]);
  });

  it('is bounded by max_fallbacks', async () => {
    mock.setBehavior('/', { status: 503 });
    const { router } = recordingRouter(
      ['a', 'b', 'c', 'd', 'e'].map((n) => deployment(mock, n)),
      {
        ...failover,
        max_fallbacks: 2,
      },
    );
    await ask(router).catch(() => undefined);
    await router.close();
    expect(mock.requests).toHaveLength(3);
  });

  it('is not triggered by a context window error or a content policy refusal', async () => {
    for (const error of [{ code: 'context_length_exceeded' }, { code: 'content_filter' }]) {
      mock.reset();
      mock.setBehavior('/a/', { status: 400, error });
      const { router } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], failover);
      await ask(router).catch(() => undefined);
      await router.close();
      expect(trail(mock)).toEqual(['a']);
    }
  });

  it('applies to the async entry points only: completion() uses ordinary retries', async () => {
    mock.setBehavior('/a/', { status: 503 });
    mock.setBehavior('/b/', { status: 503 });
    const { router } = recordingRouter(
      ['a', 'b', 'c'].map((n) => deployment(mock, n)),
      { ...failover, num_retries: 0 },
    );
    expect((await ask(router))._hidden_params.model_id).toBe('c');
    mock.reset();
    mock.setBehavior('/a/', { status: 503 });
    await expect(
      router.completion({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toThrow();
    await router.close();
    expect(trail(mock)).toEqual(['a']);
  });

  it('uses configured fallbacks only after every peer is exhausted', async () => {
    mock.setBehavior('/a', { status: 503 });
    const { router } = recordingRouter(
      [deployment(mock, 'a1', {}, 'A'), deployment(mock, 'a2', {}, 'A'), deployment(mock, 'b1', {}, 'B')],
      { ...failover, fallbacks: [{ A: ['B'] }] },
    );
    const res = await ask(router, 'A');
    await router.close();
    expect(trail(mock)).toEqual(['a1', 'a2', 'b1']);
    expect(res._hidden_params.model_group).toBe('B');
  });

  it('stays within the lowest order tier before moving to the next', async () => {
    mock.setBehavior('/x', { status: 503 });
    const { router } = recordingRouter(
      [
        deployment(mock, 'x1', { order: 1 }),
        deployment(mock, 'y1', { order: 2 }),
        deployment(mock, 'x2', { order: 1 }),
      ],
      failover,
    );
    const res = await ask(router);
    await router.close();
    expect(trail(mock)).toEqual(['x1', 'x2', 'y1']);
    expect(res._hidden_params.model_id).toBe('y1');
  });

  it('renormalises weights over the remaining peers', async () => {
    mock.setBehavior('/heavy/', { status: 503 });
    const router = new Router(
      [
        deployment(mock, 'heavy', { weight: 8 }),
        deployment(mock, 'b', { weight: 1 }),
        deployment(mock, 'c', { weight: 3 }),
      ],
      failover,
      { random: seededRandom(21) },
    );
    const counts: Record<string, number> = { b: 0, c: 0 };
    for (let i = 0; i < 300; i++) {
      const id = (await ask(router))._hidden_params.model_id;
      counts[id] = (counts[id] ?? 0) + 1;
    }
    await router.close();
    // after `heavy` fails, b : c should be 1 : 3 (expected 75 : 225)
    expect(counts.b).toBeGreaterThan(45);
    expect(counts.b).toBeLessThan(110);
  });
});
