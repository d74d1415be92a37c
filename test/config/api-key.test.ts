import { describe, expect, it } from 'vitest';
import { buildDeployments } from '../../src/config/build-deployments.js';
import { Router } from '../../src/index.js';
import { configErrorOf } from '../support/config-files.js';

const build = (svcParams: Record<string, unknown>, env: NodeJS.ProcessEnv = {}, defaults = {}) =>
  buildDeployments(
    [{ model_name: 'gpt', svc_params: { model: 'openai/gpt-4o', ...svcParams } }],
    defaults,
    env,
  );

describe('a deployment that would call its provider without an api key', () => {
  it('fails at construction naming the index, model_name and where the key goes', () => {
    const error = configErrorOf(
      () =>
        new Router(
          [
            { model_name: 'ok', svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test' } },
            { model_name: 'claude', svc_params: { model: 'anthropic/claude-sonnet-4-5' } },
          ],
          {},
          { env: {} },
        ),
    );
    expect(error.problems).toEqual([
      'model_list[1] (model_name `claude`): no api key for anthropic: set svc_params.api_key (e.g. `os.environ/ANTHROPIC_API_KEY`) or the ANTHROPIC_API_KEY environment variable',
    ]);
  });

  it('names every variable a provider reads (Gemini: GEMINI_API_KEY or GOOGLE_API_KEY)', () => {
    const error = configErrorOf(() =>
      buildDeployments([{ model_name: 'g', svc_params: { model: 'gemini/gemini-2.5-flash' } }], {}, {}),
    );
    expect(error.problems[0]).toContain('the GEMINI_API_KEY or GOOGLE_API_KEY environment variable');
  });

  it.each([
    ['an api_key', { api_key: 'sk-test' }, {}, {}],
    ['the provider’s env variable', {}, { OPENAI_API_KEY: 'sk-env' }, {}],
    ['an api_base (a local server may need no key)', { api_base: 'http://127.0.0.1:8000/v1' }, {}, {}],
    ['a mock_response', { mock_response: 'hi' }, {}, {}],
    ['an api_key in default_svc_params', {}, {}, { api_key: 'sk-default' }],
    ['an api_base in default_svc_params', {}, {}, { api_base: 'http://127.0.0.1:8000/v1' }],
  ])('is fine with %s', (_what, params, env, defaults) => {
    expect(build(params, env, defaults)).toHaveLength(1);
  });

  it('leaves providers with their own credentials to their own checks (Azure needs api_base; Vertex, Bedrock)', () => {
    const list = [
      { model_name: 'v', svc_params: { model: 'vertex_ai/gemini-2.5-flash', vertex_project: 'p' } },
      {
        model_name: 'b',
        svc_params: { model: 'bedrock/amazon.nova-lite-v1:0', aws_region_name: 'us-east-1' },
      },
      { model_name: 'a', svc_params: { model: 'azure/gpt', api_base: 'https://r.openai.azure.com' } },
    ];
    expect(buildDeployments(list, {}, {})).toHaveLength(3);
  });
});
