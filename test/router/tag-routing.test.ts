import { afterEach, describe, expect, it } from 'vitest';
import { BadRequestError, type DeploymentConfig, Router } from '../../src/index.js';

const USER = [{ role: 'user' as const, content: 'hi' }];

const deployment = (id: string, tags?: string[]): DeploymentConfig => ({
  model_name: 'm',
  svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test', mock_response: id, ...(tags && { tags }) },
  model_info: { id },
});

describe('Router with enable_tag_filtering', () => {
  let router: Router | undefined;
  afterEach(async () => {
    await router?.close();
    router = undefined;
  });

  const servedBy = async (metadata?: Record<string, unknown>) => {
    const ids = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const res = await router!.acompletion({ model: 'm', messages: USER, ...(metadata && { metadata }) });
      ids.add(res._hidden_params.model_id!);
    }
    return [...ids].sort();
  };

  it('routes a request by its metadata.tags to the deployments sharing a tag', async () => {
    router = new Router([deployment('paid', ['paid']), deployment('free', ['free']), deployment('any')], {
      enable_tag_filtering: true,
    });
    expect(await servedBy({ tags: ['paid'] })).toEqual(['paid']);
    expect(await servedBy({ tags: ['free', 'other'] })).toEqual(['free']);
  });

  it('routes an untagged request to the default deployments, else to any', async () => {
    router = new Router([deployment('paid', ['paid']), deployment('fallback', ['default'])], {
      enable_tag_filtering: true,
    });
    expect(await servedBy()).toEqual(['fallback']);
    await router.close();
    router = new Router([deployment('paid', ['paid']), deployment('plain')], { enable_tag_filtering: true });
    expect(await servedBy()).toEqual(['paid', 'plain']);
  });

  it('refuses a tagged request no deployment serves with 400 naming the tags', async () => {
    router = new Router([deployment('paid', ['paid'])], { enable_tag_filtering: true });
    const call = router.acompletion({ model: 'm', messages: USER, metadata: { tags: ['beta'] } });
    await expect(call).rejects.toThrow(BadRequestError);
    await expect(call).rejects.toMatchObject({ code: 'no_deployment_for_tags', status: 400 });
    await expect(call).rejects.toThrow('tagged `beta`');
  });

  it('ignores tags when the setting is off', async () => {
    router = new Router([deployment('paid', ['paid']), deployment('free', ['free'])]);
    expect(await servedBy({ tags: ['paid'] })).toEqual(['free', 'paid']);
  });

  it('takes the setting live from updateSettings', async () => {
    router = new Router([deployment('paid', ['paid']), deployment('free', ['free'])]);
    router.updateSettings({ enable_tag_filtering: true });
    expect(await servedBy({ tags: ['free'] })).toEqual(['free']);
  });
});
