// Wildcard model groups (CONTRACT 6.7, issue 26 item 3): `model_name: "openai/*"` or `"*"` serves a
// model no listed group has, the matched part filled into `svc_params.model`, priced from the catalog
// for the model served.
import { describe, expect, it } from 'vitest';
import { type DeploymentConfig, Router } from '../../src/index.js';
import { USER, useMock } from '../helpers.js';

const mock = useMock();

const entry = (
  name: string,
  path: string,
  model: string,
  info: Record<string, unknown> = {},
): DeploymentConfig => ({
  model_name: name,
  svc_params: { model, api_base: `${mock.url}/${path}/v1`, api_key: `sk-test-${path}-0000` },
  model_info: info,
});

describe('wildcard model groups', () => {
  it('serves an unlisted model on the provider pattern, the matched part filled into svc_params.model', async () => {
    const router = new Router([entry('openai/*', 'wild', 'openai/*')]);
    const res = await router.acompletion({ model: 'openai/gpt-4o-mini', messages: USER });
    await router.close();
    expect(mock.requests[0]?.path).toBe('/wild/v1/chat/completions');
    expect(mock.requests[0]?.body).toMatchObject({ model: 'gpt-4o-mini' });
    expect(res._hidden_params.model_group).toBe('openai/gpt-4o-mini');
  });

  it('lets `*` with `svc_params.model: "*"` serve any <provider>/<model>', async () => {
    const router = new Router([entry('*', 'any', '*')]);
    await router.acompletion({ model: 'openai/gpt-4o', messages: USER });
    await router.close();
    expect(mock.requests[0]?.path).toBe('/any/v1/chat/completions');
    expect(mock.requests[0]?.body).toMatchObject({ model: 'gpt-4o' });
  });

  it('serves a listed group by its own deployments before any pattern', async () => {
    const router = new Router([
      entry('openai/*', 'wild', 'openai/*'),
      entry('openai/gpt-4o', 'exact', 'openai/gpt-4o'),
    ]);
    await router.acompletion({ model: 'openai/gpt-4o', messages: USER });
    await router.close();
    expect(mock.requests.map((r) => r.path)).toEqual(['/exact/v1/chat/completions']);
  });

  it('serves a model on the longest matching pattern', async () => {
    const router = new Router([
      entry('*', 'any', '*'),
      entry('openai/*', 'wild', 'openai/*'),
      entry('openai/gpt-*', 'gpt', 'openai/gpt-*'),
    ]);
    await router.acompletion({ model: 'openai/gpt-4o', messages: USER });
    await router.acompletion({ model: 'openai/o3', messages: USER });
    await router.acompletion({ model: 'deepseek/deepseek-chat', messages: USER });
    await router.close();
    expect(mock.requests.map((r) => r.path.split('/')[1])).toEqual(['gpt', 'wild', 'any']);
    expect(mock.requests[0]?.body).toMatchObject({ model: 'gpt-4o' });
  });

  it('prices the call from the catalog for the model served, as a listed deployment of it is priced', async () => {
    const wild = new Router([entry('openai/*', 'wild', 'openai/*')]);
    const listed = new Router([entry('m', 'exact', 'openai/gpt-4o-mini')]);
    const a = await wild.acompletion({ model: 'openai/gpt-4o-mini', messages: USER });
    const b = await listed.acompletion({ model: 'm', messages: USER });
    await wild.close();
    await listed.close();
    expect(a._hidden_params.response_cost).toBeGreaterThan(0);
    expect(a._hidden_params.response_cost).toBe(b._hidden_params.response_cost);
  });

  it('serves embeddings and streams over the pattern too', async () => {
    const router = new Router([entry('openai/*', 'wild', 'openai/*')]);
    const emb = await router.aembedding({ model: 'openai/text-embedding-3-small', input: 'hi' });
    const stream = await router.acompletion({ model: 'openai/gpt-4o', messages: USER, stream: true });
    for await (const _ of stream);
    await router.close();
    expect(emb.data.length).toBe(1);
    expect(mock.requests.map((r) => r.body)).toMatchObject([
      { model: 'text-embedding-3-small' },
      { model: 'gpt-4o', stream: true },
    ]);
  });

  it('fails a model that no group or pattern serves as unknown', async () => {
    const router = new Router([entry('openai/*', 'wild', 'openai/*')]);
    await expect(router.acompletion({ model: 'anthropic/claude', messages: USER })).rejects.toMatchObject({
      name: 'BadRequestError',
      message: expect.stringContaining('Unknown model `anthropic/claude`'),
    });
    await router.close();
  });

  it('fails a model `*` would send to an unknown provider as unknown', async () => {
    const router = new Router([entry('*', 'any', '*')]);
    await expect(router.acompletion({ model: 'nope/x', messages: USER })).rejects.toMatchObject({
      name: 'BadRequestError',
    });
    await router.close();
    expect(mock.requests).toHaveLength(0);
  });

  it('lists only the listed groups in getModelGroupInfo', async () => {
    const router = new Router([entry('openai/*', 'wild', 'openai/*'), entry('m', 'exact', 'openai/gpt-4o')]);
    await router.acompletion({ model: 'openai/gpt-4o-mini', messages: USER });
    const names = router.getModelGroupInfo().map((g) => g.model_group);
    await router.close();
    expect(names).toEqual(['m']);
  });

  it('keeps the wildcard entries in modelList as written', () => {
    const router = new Router([entry('*', 'any', '*')]);
    expect(router.modelList.map((e) => [e.model_name, e.svc_params.model])).toEqual([['*', '*']]);
    return router.close();
  });

  it('names the pattern serving a model in wildcardFor, none for a listed group', async () => {
    const router = new Router([
      entry('openai/*', 'wild', 'openai/*'),
      entry('openai/gpt-4o', 'exact', 'openai/gpt-4o'),
    ]);
    expect(router.wildcardFor('openai/o3')).toBe('openai/*');
    expect(router.wildcardFor('openai/gpt-4o')).toBeUndefined();
    expect(router.wildcardFor('anthropic/claude')).toBeUndefined();
    await router.close();
  });

  it('lets allowModel allow a model by the pattern that serves it', async () => {
    const router = new Router([entry('openai/*', 'wild', 'openai/*')]);
    const byPattern = (m: string) => m === 'openai/*';
    await router.acompletion({ model: 'openai/gpt-4o', messages: USER }, { allowModel: byPattern });
    await expect(
      router.acompletion({ model: 'openai/gpt-4o', messages: USER }, { allowModel: (m) => m === 'other' }),
    ).rejects.toMatchObject({ name: 'PermissionDeniedError' });
    await router.close();
    expect(mock.requests).toHaveLength(1);
  });

  it('refuses at construction a wildcard entry with a bad field, naming it', () => {
    expect(() => new Router([{ model_name: '*', svc_params: { model: '*', rpm: -1 } }])).toThrow(
      /model_list\[0\]\.svc_params\.rpm/,
    );
  });
});
