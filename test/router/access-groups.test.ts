import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, type DeploymentConfig, Router } from '../../src/index.js';

const deployment = (group: string, accessGroups?: readonly (string | number)[]): DeploymentConfig => ({
  model_name: group,
  svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test', mock_response: 'hi' },
  model_info: {
    id: `${group}-${Math.random()}`,
    ...(accessGroups !== undefined && { access_groups: accessGroups as string[] }),
  },
});

describe('Router.getAccessGroups', () => {
  let router: Router | undefined;
  afterEach(async () => {
    await router?.close();
    router = undefined;
  });

  it('maps each access group to the model groups with a deployment in it', () => {
    router = new Router([
      deployment('gpt-4o-mini', ['fast-models']),
      deployment('haiku', ['fast-models', 'anthropic']),
      deployment('haiku'),
      deployment('gpt-4o'),
    ]);
    const groups = router.getAccessGroups();
    expect([...groups.keys()].sort()).toEqual(['anthropic', 'fast-models']);
    expect([...groups.get('fast-models')!].sort()).toEqual(['gpt-4o-mini', 'haiku']);
    expect([...groups.get('anthropic')!]).toEqual(['haiku']);
  });

  it('is the same object until the model list changes', () => {
    router = new Router([deployment('gpt-4o-mini', ['fast-models'])]);
    const before = router.getAccessGroups();
    expect(router.getAccessGroups()).toBe(before);
    router.addDeployment(deployment('haiku', ['fast-models']));
    expect([...router.getAccessGroups().get('fast-models')!].sort()).toEqual(['gpt-4o-mini', 'haiku']);
  });

  it('refuses an access group name that is not a string, naming the field', () => {
    expect(() => new Router([deployment('gpt-4o-mini', ['fast', 7])])).toThrow(ConfigError);
    expect(() => new Router([deployment('gpt-4o-mini', ['fast', 7])])).toThrow(
      /model_list\[0\]\.model_info\.access_groups\[1\]/,
    );
  });
});
