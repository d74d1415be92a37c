import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, Router } from '../../src/index.js';
import { useMock } from '../helpers.js';

const mock = useMock();
let router: Router;

type Body = Record<string, unknown>;
// an OpenAI-format body carries the caller's own limit as the caller spelled it
const openaiLimit = (b: Body) => b.max_completion_tokens ?? b.max_tokens;

/** One deployment per provider family, and where its output limit sits in the body it sends. */
const FAMILIES = [
  {
    name: 'openai',
    svc: { model: 'openai/gpt-4o' },
    limit: openaiLimit,
  },
  {
    name: 'mistral',
    svc: { model: 'mistral/mistral-large-latest' },
    limit: (b: Body) => b.max_tokens,
  },
  {
    name: 'azure',
    svc: { model: 'azure/my-gpt-4o' },
    limit: openaiLimit,
  },
  {
    name: 'anthropic',
    svc: { model: 'anthropic/claude-sonnet-4-5' },
    limit: (b: Body) => b.max_tokens,
  },
  {
    name: 'gemini',
    svc: { model: 'gemini/gemini-2.5-flash' },
    limit: (b: Body) => (b.generationConfig as Body | undefined)?.maxOutputTokens,
  },
  {
    name: 'vertex',
    svc: { model: 'vertex_ai/gemini-2.5-pro', vertex_project: 'p', vertex_location: 'us-central1' },
    limit: (b: Body) => (b.generationConfig as Body | undefined)?.maxOutputTokens,
  },
  {
    name: 'bedrock',
    svc: { model: 'bedrock/anthropic.claude-3-haiku-20240307-v1:0', aws_region_name: 'us-east-1' },
    limit: (b: Body) => (b.inferenceConfig as Body | undefined)?.maxTokens,
  },
] as const;

beforeAll(async () => {
  router = new Router(
    FAMILIES.flatMap((f) => [
      {
        model_name: f.name,
        svc_params: {
          ...f.svc,
          api_base: `${mock.url}/${f.name}`,
          api_key: 'sk-test-key',
          max_new_tokens: 77,
        },
      },
      {
        // svc_params' own max_tokens is the OpenAI-spelled limit: it wins over max_new_tokens
        model_name: `${f.name}-both`,
        svc_params: {
          ...f.svc,
          api_base: `${mock.url}/${f.name}`,
          api_key: 'sk-test-key',
          max_new_tokens: 77,
          max_tokens: 55,
        },
      },
    ]),
  );
});
afterAll(async () => {
  await router.close();
});

const USER = [{ role: 'user' as const, content: 'hi' }];
const sent = (): Body => mock.requests[0]?.body as Body;

describe.each(FAMILIES)('svc_params.max_new_tokens on $name', (family) => {
  it('is sent as the provider’s own limit field', async () => {
    await router.acompletion({ model: family.name, messages: USER });
    expect(family.limit(sent())).toBe(77);
    expect(sent()).not.toHaveProperty('max_new_tokens');
  });

  it('loses to the request’s max_tokens', async () => {
    await router.acompletion({ model: family.name, messages: USER, max_tokens: 12 });
    expect(family.limit(sent())).toBe(12);
  });

  it('loses to the request’s max_completion_tokens', async () => {
    await router.acompletion({ model: family.name, messages: USER, max_completion_tokens: 13 });
    expect(family.limit(sent())).toBe(13);
    // never two limits: the deployment's max_tokens stays home
    if (family.name === 'openai') expect(sent()).not.toHaveProperty('max_tokens');
  });

  it('loses to svc_params.max_tokens', async () => {
    await router.acompletion({ model: `${family.name}-both`, messages: USER });
    expect(family.limit(sent())).toBe(55);
  });

  it('leaves every svc_params limit out when the request sets max_completion_tokens', async () => {
    await router.acompletion({ model: `${family.name}-both`, messages: USER, max_completion_tokens: 14 });
    expect(family.limit(sent())).toBe(14);
    if (family.name === 'openai') expect(sent()).not.toHaveProperty('max_tokens');
  });
});

describe('max_new_tokens on other operations and in the config', () => {
  it('limits a text completion too', async () => {
    await router.atextCompletion({ model: 'openai', prompt: 'Once' });
    expect(mock.requests[0]?.path).toBe('/openai/completions');
    expect(sent().max_tokens).toBe(77);
  });

  it('must be a positive whole number', () => {
    const make = () =>
      new Router([
        { model_name: 'm', svc_params: { model: 'openai/gpt-4o', api_key: 'k', max_new_tokens: 0 } },
      ]);
    expect(make).toThrow(ConfigError);
    expect(make).toThrow(/max_new_tokens/);
  });
});
