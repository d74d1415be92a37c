import { describe, expect, it } from 'vitest';
import { useMock } from '../helpers.js';
import { ask, deployment, recordingRouter, trail } from './helpers.js';

const mock = useMock();

describe('pitfalls other routers’ users report, made impossible', () => {
  it('has one retry layer: a deployment’s max_retries adds no hidden retries', async () => {
    mock.setBehavior('/a', { status: 500 });
    const { router } = recordingRouter([deployment(mock, 'a', { max_retries: 5 })], { num_retries: 2 });
    await ask(router).catch(() => undefined);
    await router.close();
    expect(mock.requests).toHaveLength(3);
  });

  it('a fallback never restarts the retry cycle of the group it came from', async () => {
    mock.setBehavior('/', { status: 503 });
    const { router } = recordingRouter([deployment(mock, 'a1', {}, 'A'), deployment(mock, 'b1', {}, 'B')], {
      num_retries: 1,
      fallbacks: [{ A: ['B'] }, { B: ['A'] }],
    });
    await ask(router, 'A').catch(() => undefined);
    await router.close();
    expect(trail(mock)).toEqual(['a1', 'a1', 'b1', 'b1']);
  });

  it('counts every failed attempt, retries included, toward cooldown', async () => {
    mock.setBehavior('/', { status: 500 });
    const { router, cooldowns } = recordingRouter([deployment(mock, 'a1'), deployment(mock, 'a2')], {
      num_retries: 3,
      allowed_fails: 1,
    });
    await ask(router).catch(() => undefined);
    await router.close();
    expect(trail(mock)).toEqual(['a1', 'a2', 'a1', 'a2']);
    expect(cooldowns.map((c) => c.model_id)).toEqual(['a1', 'a2']);
  });

  it('counts fallback hops toward the fallback group’s cooldown too', async () => {
    // a 401 is not retried in its group (spec 10.5): it goes straight to the fallback
    mock.setBehavior('/', { status: 401 });
    const { router, cooldowns } = recordingRouter(
      [
        deployment(mock, 'a1', {}, 'A'),
        deployment(mock, 'a2', {}, 'A'),
        deployment(mock, 'b1', {}, 'B'),
        deployment(mock, 'b2', {}, 'B'),
      ],
      { fallbacks: [{ A: ['B'] }] },
    );
    await ask(router, 'A').catch(() => undefined);
    await router.close();
    expect(trail(mock)).toEqual(['a1', 'b1']);
    expect(cooldowns.map((c) => c.model_id)).toEqual(['a1', 'b1']);
  });
});
