import { buildDeployments } from '../config/build-deployments.js';
import type { Deployment, SvcParams } from '../types/index.js';

/** The parts of a model-list entry a test cares about; the rest has defaults. */
export interface TestDeploymentInput {
  /** `model_info.id`. @default a hash of `svc_params`, as for any entry without one */
  id?: string;
  /** The model group. @default 'test-model' */
  model_name?: string;
  /** Merged over `{ model: 'openai/test-model', api_key: 'sk-test-deployment' }`. */
  svc_params?: Partial<SvcParams>;
}

/**
 * A Deployment built exactly as the router builds one from its model list (validated, frozen, with
 * `entry` and `info`), for testing strategies and other code that receives deployments. `os.environ/`
 * references are resolved against an empty environment, so they fail.
 * @throws ConfigError naming the bad field, as `new Router` would.
 * @example testDeployment({ id: 'a', model_name: 'gpt-4o', svc_params: { weight: 3 } })
 */
export function testDeployment(input: TestDeploymentInput = {}): Deployment {
  const { id, model_name = 'test-model', svc_params } = input;
  const entry = {
    model_name,
    svc_params: { model: 'openai/test-model', api_key: 'sk-test-deployment', ...svc_params },
    ...(id !== undefined && { model_info: { id } }),
  };
  return buildDeployments([entry], {}, {})[0]!;
}
