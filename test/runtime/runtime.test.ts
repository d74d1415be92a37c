import { describe, expect, it, vi } from 'vitest';
import { MemoryStore, Router, type RouterError } from '../../src/index.js';
import { useMock } from '../helpers.js';
import { ask, deployment, firstChoice } from '../resilience/helpers.js';

const mock = useMock();

const timed = async (fn: () => Promise<unknown>): Promise<number> => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};

describe('runtime state survives settings changes', () => {
  it('keeps max_parallel_requests after updateSettings: two calls on a limit of 1 still run one after the other', async () => {
    mock.setBehavior('/a', { delayMs: 150 });
    const router = new Router([deployment(mock, 'a', { max_parallel_requests: 1 })]);
    router.updateSettings({ num_retries: 1 });
    const ms = await timed(() => Promise.all([ask(router), ask(router)]));
    router.updateSettings({ num_retries: 2 });
    await router.close();
    expect(mock.maxInFlight).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(295);
  });

  it('keeps a slot taken before updateSettings counted after it', async () => {
    mock.setBehavior('/a', { delayMs: 200 });
    const router = new Router([deployment(mock, 'a', { max_parallel_requests: 1 })]);
    const first = ask(router);
    await new Promise((r) => setTimeout(r, 20));
    router.updateSettings({ timeout: 5 });
    const second = ask(router);
    await Promise.all([first, second]);
    await router.close();
    expect(mock.maxInFlight).toBe(1);
  });

  it('keeps cooldowns in force across updateSettings', async () => {
    mock.setBehavior('/a', { status: 500 });
    const router = new Router(
      [deployment(mock, 'a'), deployment(mock, 'b')],
      { allowed_fails: 0 },
      {
        random: firstChoice,
      },
    );
    await ask(router); // a fails once (cooled), b serves
    router.updateSettings({ num_retries: 0 });
    const served = (await ask(router))._hidden_params.model_id;
    await router.close();
    expect(served).toBe('b');
    expect(mock.hits('/a/')).toBe(1);
  });
});

describe('shared state is read', () => {
  it('two routers on one store agree on a cooldown', async () => {
    mock.setBehavior('/a', { status: 500 });
    const store = new MemoryStore();
    const list = [deployment(mock, 'a'), deployment(mock, 'b')];
    const one = new Router(list, { allowed_fails: 0 }, { random: firstChoice, store });
    const two = new Router(list, {}, { random: firstChoice, store });
    await ask(one); // a fails: cooled, written to the store; b serves
    const served = (await ask(two))._hidden_params.model_id;
    await Promise.all([one.close(), two.close()]);
    expect(served).toBe('b');
    expect(mock.hits('/a/')).toBe(1);
  });

  it('does not close a store the caller gave it', async () => {
    const store = new MemoryStore();
    store.set('k', 1);
    const router = new Router([deployment(mock, 'a')], {}, { store });
    await router.close();
    expect(store.get('k')).toBe(1);
  });
});

describe('runtime deployments', () => {
  it('adds a deployment that serves at once and removes it again', async () => {
    const router = new Router([deployment(mock, 'a')], {}, { random: firstChoice });
    const entry = router.addDeployment(deployment(mock, 'n', {}, 'new-group'));
    expect(entry.model_info.id).toBe('n');
    const served = (await ask(router, 'new-group'))._hidden_params.model_id;
    expect(router.deleteDeployment('n')).toBe(true);
    expect(router.deleteDeployment('n')).toBe(false);
    const error = (await ask(router, 'new-group').catch((e: unknown) => e)) as RouterError;
    await router.close();
    expect(served).toBe('n');
    expect(error.status).toBe(400);
    expect(error.message).toContain('Unknown model `new-group`');
  });

  it('refuses a deployment whose model_id is already listed', () => {
    const router = new Router([deployment(mock, 'a')]);
    expect(() => router.addDeployment(deployment(mock, 'a'))).toThrow(
      /model_list\[1\]: same model_id as model_list\[0\]/,
    );
  });

  it('reports each deployment as ok, cooling or half-open, with calls in flight', async () => {
    mock.setBehavior('/a', { status: 500 });
    mock.setBehavior('/b', { delayMs: 100 });
    const router = new Router(
      [deployment(mock, 'a'), deployment(mock, 'b')],
      { cooldown_time: 0.1, allowed_fails: 0 },
      {
        random: firstChoice,
      },
    );
    const call = ask(router);
    // once `b` serves the call `a` failed (not after a fixed wait, which a loaded machine outran)
    await vi.waitFor(() => expect(router.getDeployments()[1]!.in_flight).toBe(1), { interval: 2 });
    const during = router.getDeployments();
    await call;
    await new Promise((r) => setTimeout(r, 120));
    const after = router.getDeployments();
    await router.close();
    expect(during.map((d) => [d.model_id, d.state, d.in_flight])).toEqual([
      ['a', 'cooling', 0],
      ['b', 'ok', 1],
    ]);
    expect(during[0]!.cooling_until).toBeGreaterThan(Date.now() - 1000);
    expect(during[0]!.failures_this_minute).toBe(1);
    expect(after[0]!.state).toBe('half_open');
    expect(after[1]).toMatchObject({ state: 'ok', in_flight: 0, calls_this_minute: 1, error_rate: 0 });
  });
});

describe('inspecting a router', () => {
  it('never shows a credential', async () => {
    const { inspect } = await import('node:util');
    const router = new Router([deployment(mock, 'a', { api_key: 'sk-very-secret-value-1234' })]);
    const text = inspect(router, { depth: 10 });
    expect(text).toContain('gpt-4o');
    expect(text).not.toContain('sk-very-secret');
  });
});
