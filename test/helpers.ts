import type { DeploymentConfig } from '../src/index.js';
import { type MockProvider, startMockProvider } from '../src/testing/index.js';

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

/** Starts a mock provider for a test file and closes it after. */
export async function useMock(): Promise<MockProvider> {
  return startMockProvider();
}
