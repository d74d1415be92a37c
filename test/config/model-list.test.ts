import { describe, expect, it } from 'vitest';
import { buildDeployments } from '../../src/config/build-deployments.js';
import { deploymentHash } from '../../src/config/model-id.js';
import { Router } from '../../src/index.js';

const messageOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error');
};

describe('model list validation', () => {
  it('names the index and field of a bad deployment', () => {
    const message = messageOf(() =>
      buildDeployments(
        [
          { model_name: 'a', svc_params: { model: 'openai/gpt-4o' } },
          { model_name: 'b', svc_params: { model: 'openai/gpt-4o', rpm: 'many' } },
        ],
        {},
      ),
    );
    expect(message).toContain('model_list[1].svc_params.rpm: expected number');
  });

  it('names an unknown provider prefix and the closest known one', () => {
    const message = messageOf(() =>
      buildDeployments([{ model_name: 'a', svc_params: { model: 'opnai/gpt-4o' } }], {}),
    );
    expect(message).toContain(
      'model_list[0].svc_params.model: unknown provider `opnai/`; did you mean `openai`?',
    );
  });

  it('requires model_name', () => {
    const message = messageOf(() => buildDeployments([{ svc_params: { model: 'openai/gpt-4o' } }], {}));
    expect(message).toContain('model_list[0].model_name: is required');
  });

  it('reports an unknown deployment key with the closest one', () => {
    const message = messageOf(() =>
      buildDeployments([{ model_name: 'a', svc_params: { model: 'openai/x' }, model_inf: {} }], {}),
    );
    expect(message).toContain('unknown key `model_inf` in `model_list[0]`; did you mean `model_info`?');
  });

  it('reports a svc_params key that looks like a typo of a router key', () => {
    const message = messageOf(() =>
      buildDeployments([{ model_name: 'a', svc_params: { model: 'openai/x', wieght: 2 } }], {}),
    );
    expect(message).toContain('unknown key `wieght` in `model_list[0].svc_params`; did you mean `weight`?');
  });

  it('passes provider keys through untouched', () => {
    const [d] = buildDeployments(
      [
        {
          model_name: 'a',
          svc_params: { model: 'azure/gpt', tenant_id: 't', api_type: 'azure', max_new_tokens: 5 },
        },
      ],
      {},
    );
    expect(d?.params).toMatchObject({ tenant_id: 't', api_type: 'azure', max_new_tokens: 5 });
  });

  it('names an unset os.environ variable and never prints a value', () => {
    const message = messageOf(() =>
      buildDeployments(
        [{ model_name: 'a', svc_params: { model: 'openai/x', api_key: 'os.environ/MISSING_KEY_X' } }],
        {},
        { OTHER: 'sk-should-not-print' },
      ),
    );
    expect(message).toBe(
      'Invalid model list: model_list[0].svc_params.api_key: environment variable MISSING_KEY_X is not set',
    );
  });

  it('resolves os.environ references into the deployment params', () => {
    const [d] = buildDeployments(
      [{ model_name: 'a', svc_params: { model: 'openai/x', api_key: 'os.environ/MY_KEY' } }],
      {},
      { MY_KEY: 'sk-from-env' },
    );
    expect(d?.params.api_key).toBe('sk-from-env');
  });

  it('uses model_info.id as the model_id', () => {
    const [d] = buildDeployments(
      [
        {
          model_name: 'a',
          svc_params: { model: 'openai/x', api_key: 'sk-test' },
          model_info: { id: 'mine' },
        },
      ],
      {},
    );
    expect(d?.id).toBe('mine');
  });

  it('hashes svc_params into a model_id that ignores key order', () => {
    const [a] = buildDeployments(
      [{ model_name: 'a', svc_params: { model: 'openai/x', rpm: 5, api_base: 'http://h' } }],
      {},
    );
    const [b] = buildDeployments(
      [{ model_name: 'a', svc_params: { api_base: 'http://h', rpm: 5, model: 'openai/x' } }],
      {},
    );
    expect(a?.id).toBe(b?.id);
    expect(a?.id).toBe(deploymentHash({ model: 'openai/x', rpm: 5, api_base: 'http://h' }));
    expect(a?.id).toMatch(/^[0-9a-f]{64}$/);
  });

  it('rejects two deployments with the same model_id', () => {
    const entry = { model_name: 'a', svc_params: { model: 'openai/x' } };
    expect(messageOf(() => buildDeployments([entry, entry], {}))).toContain(
      'model_list[1]: same model_id as model_list[0]',
    );
  });

  it('merges default_svc_params under each deployment', () => {
    const [d] = buildDeployments([{ model_name: 'a', svc_params: { model: 'openai/x', rpm: 1 } }], {
      rpm: 9,
      timeout: 3,
      api_key: 'sk-default',
    });
    expect(d?.params).toMatchObject({ rpm: 1, timeout: 3, api_key: 'sk-default' });
  });

  it('fails at Router construction, not at the first request', () => {
    expect(() => new Router([{ model_name: 'a', svc_params: { model: 'nope/x' } }])).toThrow(
      /unknown provider `nope\/`/,
    );
  });

  it('names settings problems at construction', () => {
    expect(() => new Router([], { num_retry: 2 } as never)).toThrow('did you mean `num_retries`?');
  });
});
