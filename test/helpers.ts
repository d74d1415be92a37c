import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { DeploymentConfig } from '../src/index.js';
import { type MockProvider, type MockProviderOptions, startMockProvider } from '../src/testing/index.js';

export const USER = [{ role: 'user' as const, content: 'hello' }];

/** A deployment of the OpenAI format at `mock.url/<name>/v1`, with `model_info.id` = name. */
export function deployment(
  mock: MockProvider,
  name: string,
  params: Record<string, unknown> = {},
  group = 'gpt-4o',
): DeploymentConfig {
  return {
    model_name: group,
    svc_params: {
      model: 'openai/gpt-4o',
      api_base: `${mock.url}/${name}/v1`,
      api_key: `sk-test-${name}-0000`,
      ...params,
    },
    model_info: { id: name },
  };
}

/**
 * The mock provider of a test file (or of the describe block it is called in): started before its
 * tests, its behaviors reset before each test, closed after. Read it inside tests and hooks only.
 *
 * @example
 * const mock = useMock();
 * it('answers', async () => { mock.setBehavior('a', { status: 500 }); ... });
 */
export function useMock(options?: MockProviderOptions): MockProvider {
  let started: MockProvider | undefined;
  beforeAll(async () => {
    started = await startMockProvider(options);
  });
  beforeEach(() => started?.reset());
  afterAll(() => started?.close());
  return new Proxy({} as MockProvider, {
    get(_, key) {
      if (!started) throw new Error('useMock(): the mock starts in beforeAll; read it inside a test or hook');
      const value = Reflect.get(started, key);
      return typeof value === 'function' ? value.bind(started) : value;
    },
  });
}
