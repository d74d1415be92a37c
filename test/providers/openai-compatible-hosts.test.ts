import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeployments } from '../../src/config/build-deployments.js';
import { ConfigError, Router } from '../../src/index.js';
import { buildTarget } from '../../src/providers/build-target.js';
import { BUILT_IN_PROVIDERS } from '../../src/providers/registry.js';
import { useMock } from '../helpers.js';
import { USER } from './openai-family-helpers.js';

const mock = useMock();

const KEY = 'sk-host-key-123456';

/** Every host prefix with the endpoint and key variable it defaults to (CONTRACT 6.7). */
const HOSTS = [
  { prefix: 'groq', base: 'https://api.groq.com/openai/v1', keyEnv: 'GROQ_API_KEY' },
  { prefix: 'mistral', base: 'https://api.mistral.ai/v1', keyEnv: 'MISTRAL_API_KEY' },
  { prefix: 'together_ai', base: 'https://api.together.xyz/v1', keyEnv: 'TOGETHERAI_API_KEY' },
  { prefix: 'fireworks_ai', base: 'https://api.fireworks.ai/inference/v1', keyEnv: 'FIREWORKS_AI_API_KEY' },
  { prefix: 'cerebras', base: 'https://api.cerebras.ai/v1', keyEnv: 'CEREBRAS_API_KEY' },
  { prefix: 'perplexity', base: 'https://api.perplexity.ai', keyEnv: 'PERPLEXITYAI_API_KEY' },
  { prefix: 'deepinfra', base: 'https://api.deepinfra.com/v1/openai', keyEnv: 'DEEPINFRA_API_KEY' },
  { prefix: 'ollama', base: 'http://localhost:11434/v1', keyEnv: undefined },
  { prefix: 'lm_studio', base: 'http://localhost:1234/v1', keyEnv: 'LM_STUDIO_API_KEY' },
] as const;

/** The target a deployment resolves to with `env`, as the router derives it at construction. */
function resolved(svcParams: Record<string, unknown>, env: NodeJS.ProcessEnv) {
  const [deployment] = buildDeployments([{ model_name: 'm', svc_params: svcParams }], {}, env);
  const adapter = BUILT_IN_PROVIDERS.adapterFor(deployment!.provider)!;
  return buildTarget(deployment!, adapter, env);
}

const routerOn = (model: string, params: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = {}) =>
  new Router([{ model_name: 'm', svc_params: { model, ...params } }], {}, { env });

describe('the default endpoint and key of each OpenAI-compatible host', () => {
  it.each(HOSTS)('$prefix/ calls $base with the key from $keyEnv', ({ prefix, base, keyEnv }) => {
    const env = keyEnv ? { [keyEnv]: 'key-from-env-1234' } : {};
    const target = resolved({ model: `${prefix}/some-model` }, env);
    expect(target).toMatchObject({ provider: prefix, model: 'some-model', apiBase: base });
    expect(target.apiKey).toBe(keyEnv ? 'key-from-env-1234' : undefined);
  });

  it.each([
    ['together_ai', 'TOGETHER_API_KEY'],
    ['fireworks_ai', 'FIREWORKS_API_KEY'],
    ['perplexity', 'PERPLEXITY_API_KEY'],
  ])('%s/ also reads the key variable of the host’s own SDK, %s', (prefix, name) => {
    expect(resolved({ model: `${prefix}/m` }, { [name]: 'sdk-key-12345678' }).apiKey).toBe(
      'sdk-key-12345678',
    );
  });

  it('prefers the contract’s key variable over the SDK’s', () => {
    const env = { TOGETHERAI_API_KEY: 'contract-key-1234', TOGETHER_API_KEY: 'sdk-key-12345678' };
    expect(resolved({ model: 'together_ai/m' }, env).apiKey).toBe('contract-key-1234');
  });

  it('refuses a keyed host with no key anywhere at construction, naming the variable', () => {
    expect(() => routerOn('groq/llama-3.3-70b-versatile')).toThrow(ConfigError);
    expect(() => routerOn('groq/llama-3.3-70b-versatile')).toThrow(/model_list\[0\].*GROQ_API_KEY/);
  });

  it.each(['ollama/llama3.2', 'lm_studio/qwen2.5-7b-instruct'])(
    'builds %s on its default local endpoint with no key',
    (model) => {
      expect(() => routerOn(model)).not.toThrow();
    },
  );
});

describe('hosted_vllm/ needs an api_base', () => {
  it('is refused at construction without one, naming the deployment and the field', () => {
    const make = () => routerOn('hosted_vllm/meta-llama/Llama-3.1-8B-Instruct');
    expect(make).toThrow(ConfigError);
    expect(make).toThrow(
      /model_list\[0\]: hosted_vllm\/meta-llama\/Llama-3\.1-8B-Instruct has no `api_base`/,
    );
  });

  it('calls {api_base}/chat/completions with no Authorization when it has no key', async () => {
    const router = routerOn('hosted_vllm/my-llama', { api_base: `${mock.url}/vllm/v1` });
    await router.acompletion({ model: 'm', messages: USER });
    await router.close();
    expect(mock.requests[0]?.path).toBe('/vllm/v1/chat/completions');
    expect(mock.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('sends the key from HOSTED_VLLM_API_KEY when the server was started with one', async () => {
    const router = routerOn(
      'hosted_vllm/my-llama',
      { api_base: `${mock.url}/vllm/v1` },
      { HOSTED_VLLM_API_KEY: 'vllm-token-1234' },
    );
    await router.acompletion({ model: 'm', messages: USER });
    await router.close();
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer vllm-token-1234');
  });
});

describe('each host’s request as the provider receives it', () => {
  // one group per host, each on its own mock path
  let router: Router;
  beforeAll(() => {
    router = new Router(
      HOSTS.map((h) => ({
        model_name: h.prefix,
        svc_params: {
          model: `${h.prefix}/org/model-1`,
          api_base: `${mock.url}/${h.prefix}/v1`,
          api_key: KEY,
        },
      })),
    );
  });
  afterAll(() => router.close());

  it.each(HOSTS.map((h) => h.prefix))(
    '%s/ posts {api_base}/chat/completions with a Bearer key and the host’s model name',
    async (prefix) => {
      const res = await router.acompletion({ model: prefix, messages: USER, temperature: 0.3 });
      const [request] = mock.requests;
      expect(request?.path).toBe(`/${prefix}/v1/chat/completions`);
      expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(request?.body).toEqual({ model: 'org/model-1', messages: USER, temperature: 0.3 });
      expect(res._hidden_params.custom_llm_provider).toBe(prefix);
    },
  );

  it('reports each host by its prefix in getModelGroupInfo', () => {
    const providers = router.getModelGroupInfo().map((info) => info.providers);
    expect(providers).toEqual(HOSTS.map((h) => [h.prefix]));
  });

  it('sends no Authorization header to Ollama when the deployment has no key', async () => {
    const router = routerOn('ollama/llama3.2', { api_base: `${mock.url}/ollama/v1` });
    await router.acompletion({ model: 'm', messages: USER });
    await router.close();
    expect(mock.requests[0]?.path).toBe('/ollama/v1/chat/completions');
    expect(mock.requests[0]?.headers).not.toHaveProperty('authorization');
  });

  it('sends the caller’s reasoning controls as reasoning_effort', async () => {
    const router = routerOn('groq/openai/gpt-oss-120b', { api_base: `${mock.url}/g`, api_key: KEY });
    await router.acompletion({
      model: 'm',
      messages: USER,
      thinking: { type: 'enabled', budget_tokens: 4096 },
    });
    await router.close();
    const body = mock.requests[0]?.body as Record<string, unknown>;
    expect(body.reasoning_effort).toBe('high');
    expect(body).not.toHaveProperty('thinking');
  });
});

describe('a mistyped provider prefix', () => {
  const problem = (model: string): string => {
    try {
      routerOn(model, { api_key: KEY });
    } catch (error) {
      return (error as ConfigError).message;
    }
    throw new Error('expected a ConfigError');
  };

  it('suggests the closest prefix: grok/ is groq/', () => {
    expect(problem('grok/llama3-70b-8192')).toMatch(/unknown provider `grok\/`; did you mean `groq`\?/);
  });

  it('lists the host prefixes among the known ones', () => {
    const message = problem('nope/x');
    for (const prefix of [...HOSTS.map((h) => h.prefix), 'hosted_vllm'])
      expect(message).toContain(`${prefix}/`);
  });
});
