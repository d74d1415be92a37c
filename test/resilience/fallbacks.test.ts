import { describe, expect, it } from 'vitest';
import {
  ContentPolicyViolationError,
  NoDeploymentsAvailableError,
  RateLimitError,
  Router,
  type RouterError,
} from '../../src/index.js';
import { useMock } from '../helpers.js';
import { ask, deployment, recordingRouter, serve, trail } from './helpers.js';

const mock = useMock();

const groups = () => [
  deployment(mock, 'a1', {}, 'A'),
  deployment(mock, 'b1', {}, 'B'),
  deployment(mock, 'c1', {}, 'C'),
  deployment(mock, 'd1', {}, 'D'),
];

describe('fallbacks', () => {
  it('retries in the group, then the next order tier, then the fallbacks, in that order', async () => {
    mock.setBehavior('/t1', { status: 500 });
    mock.setBehavior('/t2', { status: 500 });
    const { router, fallbacks } = recordingRouter(
      [
        deployment(mock, 't1', { order: 1 }, 'A'),
        deployment(mock, 't2', { order: 2 }, 'A'),
        deployment(mock, 'b1', {}, 'B'),
      ],
      { num_retries: 1, allowed_fails: 10, fallbacks: [{ A: ['B'] }] },
    );
    const res = await ask(router, 'A');
    await router.close();
    expect(trail(mock)).toEqual(['t1', 't1', 't2', 't2', 'b1']);
    expect(res._hidden_params).toMatchObject({ model_group: 'B', model_id: 'b1', attempts: 5 });
    expect(fallbacks).toEqual([
      { from: 'A', to: 'B', error: expect.objectContaining({ name: 'InternalServerError' }) },
    ]);
  });

  it('sends a non-retryable error straight to the fallback, without retries', async () => {
    mock.setBehavior('/a1', { status: 400 });
    const { router } = recordingRouter(groups(), { num_retries: 3, fallbacks: [{ A: ['B'] }] });
    const res = await ask(router, 'A');
    await router.close();
    expect(trail(mock)).toEqual(['a1', 'b1']);
    expect(res._hidden_params.model_group).toBe('B');
  });

  it('sends a context window error to context_window_fallbacks rather than the general ones', async () => {
    mock.setBehavior('/a1', { status: 400, error: { code: 'context_length_exceeded' } });
    const { router } = recordingRouter(groups(), {
      fallbacks: [{ A: ['B'] }],
      context_window_fallbacks: [{ A: ['C'] }],
    });
    const res = await ask(router, 'A');
    await router.close();
    expect(res._hidden_params.model_group).toBe('C');
    expect(mock.hits('/b1/')).toBe(0);
  });

  it('routes a content policy refusal only to content_policy_fallbacks', async () => {
    mock.setBehavior('/a1', { status: 400, error: { code: 'content_filter' } });
    const { router } = recordingRouter(groups(), { fallbacks: [{ A: ['B'] }], default_fallbacks: ['D'] });
    await expect(ask(router, 'A')).rejects.toBeInstanceOf(ContentPolicyViolationError);
    expect(mock.hits('/b1/') + mock.hits('/d1/')).toBe(0);
    router.updateSettings({ content_policy_fallbacks: [{ A: ['C'] }] });
    expect((await ask(router, 'A'))._hidden_params.model_group).toBe('C');
    await router.close();
  });

  it('uses default_fallbacks for a model without its own list', async () => {
    mock.setBehavior('/a1', { status: 503 });
    const { router } = recordingRouter(groups(), { default_fallbacks: ['D'], num_retries: 0 });
    expect((await ask(router, 'A'))._hidden_params.model_group).toBe('D');
    await router.close();
  });

  it('prefers a request’s own fallbacks', async () => {
    mock.setBehavior('/a1', { status: 503 });
    const { router } = recordingRouter(groups(), { fallbacks: [{ A: ['B'] }], num_retries: 0 });
    expect((await ask(router, 'A', { fallbacks: ['C'] }))._hidden_params.model_group).toBe('C');
    await router.close();
  });

  it('tries at most max_fallbacks fallback groups', async () => {
    mock.setBehavior('/', { status: 503 });
    const { router, fallbacks } = recordingRouter(groups(), {
      fallbacks: [{ A: ['B', 'C', 'D'] }],
      max_fallbacks: 2,
      num_retries: 0,
    });
    await ask(router, 'A').catch(() => undefined);
    await router.close();
    expect(fallbacks.map((f) => f.to)).toEqual(['B', 'C']);
    expect(mock.hits('/d1/')).toBe(0);
  });

  it('never returns to a group the call already tried (no loops)', async () => {
    mock.setBehavior('/', { status: 503 });
    const { router } = recordingRouter(groups(), {
      fallbacks: [{ A: ['B', 'A'] }, { B: ['A'] }],
      num_retries: 0,
    });
    const error = (await ask(router, 'A').catch((e: unknown) => e)) as RouterError;
    await router.close();
    expect(trail(mock)).toEqual(['a1', 'b1']);
    expect(error.attempts).toHaveLength(1);
  });

  it('rejects a fallback naming an unknown group at construction', () => {
    expect(() => new Router(groups(), { fallbacks: [{ A: ['b'] }] })).toThrow(
      'fallbacks[0].A: unknown model group `b`; did you mean `B`?',
    );
  });
});

describe('no deployments', () => {
  it('throws the exact NoDeploymentsAvailableError message when every deployment is cooling', async () => {
    mock.setBehavior('/', { status: 429 });
    const { router } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], { cooldown_time: 5 });
    await ask(router).catch(() => undefined);
    const error = await ask(router).catch((e: unknown) => e);
    await router.close();
    expect(error).toBeInstanceOf(NoDeploymentsAvailableError);
    expect((error as Error).message).toBe(
      'No deployments available for selected model, Try again in 5 seconds. Passed model=gpt-4o. pre-call-checks=false, allowed_model_region=n/a.',
    );
    expect((error as RouterError).status).toBe(429);
    expect(mock.requests).toHaveLength(2);
  });

  it('counts whole seconds until the earliest cooldown ends', async () => {
    mock.setBehavior('/', { status: 429 });
    let now = 1_000_000;
    const router = new Router(
      [deployment(mock, 'a', { cooldown_time: 3 }), deployment(mock, 'b', { cooldown_time: 10 })],
      {},
      {
        now: () => now,
        random: () => 0,
      },
    );
    await ask(router).catch(() => undefined);
    now += 1500;
    const error = await ask(router).catch((e: unknown) => e);
    await router.close();
    expect((error as Error).message).toContain('Try again in 2 seconds');
  });

  it('names the requested region and pre-call checks in the message', async () => {
    const router = new Router([deployment(mock, 'a', { region_name: 'us' })], {
      enable_pre_call_checks: true,
    });
    const error = await ask(router, 'gpt-4o', { allowed_model_region: 'eu' }).catch((e: unknown) => e);
    await router.close();
    expect((error as Error).message).toBe(
      'No deployments available for selected model, Try again in 0 seconds. Passed model=gpt-4o. pre-call-checks=true, allowed_model_region=eu.',
    );
    expect(mock.requests).toHaveLength(0);
  });

  it('with pre-call checks, sends a prompt too big for every deployment to its context window fallback unsent', async () => {
    const small = deployment(mock, 'small', { model: 'openai/gpt-4' }, 'Small');
    const { router } = recordingRouter([small, deployment(mock, 'big', {}, 'Big')], {
      enable_pre_call_checks: true,
      context_window_fallbacks: [{ Small: ['Big'] }],
    });
    const prompt = 'lorem ipsum dolor sit amet '.repeat(2500); // well over gpt-4's 8,192 tokens
    const res = await ask(router, 'Small', { messages: [{ role: 'user', content: prompt }] });
    await router.close();
    expect(res._hidden_params.model_group).toBe('Big');
    expect(trail(mock)).toEqual(['big']);
  });

  it('mock_testing_rate_limit_error raises a RateLimitError through the same path (fallbacks apply)', async () => {
    const { router, fallbacks } = recordingRouter(groups(), { fallbacks: [{ A: ['B'] }] });
    const res = await ask(router, 'A', { mock_testing_rate_limit_error: true });
    expect(res._hidden_params.model_group).toBe('B');
    expect(fallbacks[0]?.error).toBeInstanceOf(RateLimitError);
    expect(trail(mock)).toEqual(['b1']);
    const { router: plain } = recordingRouter(groups());
    await expect(ask(plain, 'A', { mock_testing_rate_limit_error: true })).rejects.toBeInstanceOf(
      RateLimitError,
    );
    await router.close();
    await plain.close();
  });

  it('keeps serving from healthy groups while one group is exhausted', async () => {
    mock.setBehavior('/a1', { status: 429 });
    const { router } = recordingRouter(groups());
    expect(await serve(router, 1, 'B')).toEqual(['b1']);
    await router.close();
  });
});
