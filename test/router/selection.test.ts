import { describe, expect, it } from 'vitest';
import { Router } from '../../src/index.js';
import { seededRandom } from '../../src/testing/index.js';
import { deployment, USER, useMock } from '../helpers.js';

const mock = useMock({ record: false });

async function servedCounts(
  router: Router,
  calls: number,
  concurrency = 25,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let next = 0;
  const worker = async () => {
    while (next++ < calls) {
      const res = await router.acompletion({ model: 'gpt-4o', messages: USER });
      const id = res._hidden_params.model_id;
      counts[id] = (counts[id] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return counts;
}

describe('simple-shuffle over real HTTP', () => {
  it('splits 600 calls by weight 3/1/1 within statistical bounds', async () => {
    const router = new Router(
      [
        deployment(mock, 'a', { weight: 3 }),
        deployment(mock, 'b', { weight: 1 }),
        deployment(mock, 'c', { weight: 1 }),
      ],
      {},
      { random: seededRandom(11) },
    );
    const counts = await servedCounts(router, 600);
    await router.close();
    // expected 360/120/120; bounds are ~4.5 standard deviations
    expect(counts.a).toBeGreaterThan(310);
    expect(counts.a).toBeLessThan(410);
    expect(counts.b).toBeGreaterThan(80);
    expect(counts.b).toBeLessThan(160);
    expect(counts.c).toBeGreaterThan(80);
    expect(counts.c).toBeLessThan(160);
    // the mock's own hit counts agree with what the router reported
    expect(mock.hits('/a/')).toBe(counts.a);
    expect(mock.hits('/b/')).toBe(counts.b);
  });

  it('is reproducible with the same seed', async () => {
    const list = [deployment(mock, 'a', { weight: 1 }), deployment(mock, 'b', { weight: 1 })];
    const run = async () => {
      const router = new Router(list, {}, { random: seededRandom(5) });
      const ids: string[] = [];
      for (let i = 0; i < 20; i++)
        ids.push((await router.acompletion({ model: 'gpt-4o', messages: USER }))._hidden_params.model_id);
      await router.close();
      return ids;
    };
    expect(await run()).toEqual(await run());
  });

  it('weights by rpm when no deployment sets weight', async () => {
    const router = new Router(
      [deployment(mock, 'a', { rpm: 900 }), deployment(mock, 'b', { rpm: 100 })],
      {},
      { random: seededRandom(3) },
    );
    const counts = await servedCounts(router, 500);
    await router.close();
    // expected 450/50
    expect(counts.a).toBeGreaterThan(420);
    expect(counts.b).toBeGreaterThan(25);
    expect(counts.b).toBeLessThan(80);
  });

  it('is uniform when no deployment sets weight, rpm or tpm', async () => {
    const router = new Router(
      [deployment(mock, 'a'), deployment(mock, 'b')],
      {},
      { random: seededRandom(9) },
    );
    const counts = await servedCounts(router, 500);
    await router.close();
    expect(counts.a).toBeGreaterThan(200);
    expect(counts.b).toBeGreaterThan(200);
  });
});

describe('order tiers', () => {
  it('sends every call to the lowest order while it is healthy', async () => {
    const router = new Router([
      deployment(mock, 'primary', { order: 1 }),
      deployment(mock, 'backup', { order: 2 }),
    ]);
    await servedCounts(router, 40, 4);
    await router.close();
    expect(mock.hits('/primary/')).toBe(40);
    expect(mock.hits('/backup/')).toBe(0);
  });

  it('moves to the next tier when the lowest one fails', async () => {
    mock.setBehavior('/primary', { status: 503 });
    const router = new Router(
      [deployment(mock, 'primary', { order: 1 }), deployment(mock, 'backup', { order: 2 })],
      {
        num_retries: 0,
      },
    );
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER });
    await router.close();
    expect(res._hidden_params.model_id).toBe('backup');
    expect(res._hidden_params.attempts).toBe(2);
    expect(mock.hits('/primary/')).toBe(1);
  });

  it('does not move tiers on a bad request: the request is at fault, not the deployment', async () => {
    mock.setBehavior('/primary', { status: 400, error: { message: 'bad field' } });
    const router = new Router([
      deployment(mock, 'primary', { order: 1 }),
      deployment(mock, 'backup', { order: 2 }),
    ]);
    await expect(router.acompletion({ model: 'gpt-4o', messages: USER })).rejects.toThrow('bad field');
    await router.close();
    expect(mock.hits('/backup/')).toBe(0);
  });
});
