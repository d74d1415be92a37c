import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  type DeploymentConfig,
  type FailureEvent,
  Router,
  type RouterError,
} from '../../src/index.js';
import { deployment, USER, useMock } from '../helpers.js';

// Faults of the request itself, found by test/properties/request.property.test.ts: each is a
// BadRequestError that names what is wrong and counts against no deployment.

const mock = useMock();

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as RouterError,
  );

/** A router on `list` whose failure events are kept; allowed_fails 0, so any counted failure cools. */
function watched(list: DeploymentConfig[]) {
  const router = new Router(list, { allowed_fails: 0, num_retries: 1 });
  const failures: FailureEvent[] = [];
  router.on('failure', (e) => failures.push(e));
  return { router, failures };
}

const claude = (name: string): DeploymentConfig => ({
  model_name: 'gpt-4o',
  svc_params: {
    model: 'anthropic/claude-sonnet-4-5',
    api_base: `${mock.url}/${name}`,
    api_key: 'sk-ant-0000',
  },
  model_info: { id: name },
});

describe('a request field that throws when read', () => {
  it('is a BadRequestError naming the field, before any deployment is tried', async () => {
    const { router, failures } = watched([deployment(mock, 'a'), deployment(mock, 'b')]);
    const request = { model: 'gpt-4o', messages: USER };
    Object.defineProperty(request, 'temperature', {
      enumerable: true,
      get() {
        throw new Error('getter refuses');
      },
    });
    const error = await failure(router.acompletion(request));
    await router.close();
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error?.message).toBe('Invalid request: request.temperature cannot be read: getter refuses');
    expect(failures).toEqual([]);
    expect(mock.requests).toHaveLength(0);
  });

  it('is a BadRequestError when the whole request is a Proxy that refuses every read', async () => {
    const { router } = watched([deployment(mock, 'a')]);
    const refuse = () => {
      throw new Error('proxy refuses');
    };
    const request = new Proxy(
      {},
      { get: refuse, has: refuse, ownKeys: refuse, getOwnPropertyDescriptor: refuse },
    );
    const error = await failure(router.aembedding(request as never));
    await router.close();
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error?.message).toBe('Invalid request: request cannot be read: proxy refuses');
  });
});

describe('a request that cannot be serialised', () => {
  it('names the field that cannot, and says it contains a cycle', async () => {
    const { router } = watched([deployment(mock, 'a')]);
    const loop: Record<string, unknown> = { kind: 'loop' };
    loop.self = loop;
    const error = await failure(
      router.acompletion({ model: 'gpt-4o', messages: USER, user_data: loop } as never),
    );
    await router.close();
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error?.message).toBe(
      'Invalid request: request.user_data.self cannot be serialised as JSON: it contains a cycle',
    );
  });

  it('names a field nested 100,000 deep by its first levels', async () => {
    const { router } = watched([deployment(mock, 'a')]);
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    const error = await failure(
      router.acompletion({ model: 'gpt-4o', messages: USER, extra: deep } as never),
    );
    await router.close();
    expect(error?.message).toBe(
      'Invalid request: request.extra.d.d.d.d.d.d.d cannot be serialised as JSON: it is nested too deeply',
    );
  });
});

describe('a request a provider cannot translate (a field of a type it does not take)', () => {
  it('is a BadRequestError, counts against no deployment, and the next call is served', async () => {
    const { router, failures } = watched([claude('a'), claude('b')]);
    const bad = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: { text: 'not an array' } }] };
    const errors = [];
    for (let i = 0; i < 3; i++) errors.push(await failure(router.acompletion(bad as never)));
    const health = router.getDeployments();
    const served = (await router.acompletion({ model: 'gpt-4o', messages: USER }))._hidden_params.model_id;
    await router.close();
    for (const error of errors) {
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error?.message).toMatch(/^Invalid request: request cannot be translated for anthropic: /);
    }
    expect(failures).toEqual([]);
    expect(health.map((d) => [d.state, d.failures_this_minute])).toEqual([
      ['ok', 0],
      ['ok', 0],
    ]);
    expect(['a', 'b']).toContain(served);
    expect(mock.requests).toHaveLength(1);
  });
});

describe('an image request with n outside 1..10', () => {
  it('is refused by the provider with a 400 and cools no deployment', async () => {
    const { router, failures } = watched([deployment(mock, 'a'), deployment(mock, 'b')]);
    const error = await failure(router.aimageGeneration({ model: 'gpt-4o', prompt: 'a cat', n: 0 }));
    const health = router.getDeployments();
    await router.close();
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error?.message).toContain("Invalid 'n'");
    expect(failures.map((f) => f.error.status)).toEqual([400]);
    expect(health.map((d) => [d.state, d.failures_this_minute])).toEqual([
      ['ok', 0],
      ['ok', 0],
    ]);
  });
});
