import { describe, expect, it } from 'vitest';
import { deploymentSchema, deploymentSchemaFor } from '../../src/config/model-list-schema.js';
import { BadRequestError, ConfigError, PROVIDER_PREFIXES, type ProviderAdapter } from '../../src/index.js';
import { openaiAdapter } from '../../src/providers/openai/index.js';
import { BUILT_IN_PROVIDERS, createProviderRegistry } from '../../src/providers/registry.js';
import { acmeAdapter } from './acme-adapter.js';

const BUILT_IN_NAMES = [
  'openai',
  'azure',
  'anthropic',
  'gemini',
  'vertex_ai',
  'bedrock',
  'deepseek',
  'xai',
  'openrouter',
  'groq',
  'mistral',
  'together_ai',
  'fireworks_ai',
  'cerebras',
  'perplexity',
  'deepinfra',
  'ollama',
  'lm_studio',
  'hosted_vllm',
];

/** The registry's prefix table, `{ prefix: provider }`. */
const prefixTable = (registry = BUILT_IN_PROVIDERS) =>
  Object.fromEntries(registry.prefixes().map((p) => [p, registry.providerOfPrefix(p)]));

const problemsOf = (make: () => unknown): readonly string[] => {
  try {
    make();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
};

describe('the built-in provider registry', () => {
  it('names the built-in providers: nine with their own folder, then the OpenAI-compatible hosts', () => {
    expect(BUILT_IN_PROVIDERS.names()).toEqual(BUILT_IN_NAMES);
  });

  it('has the prefix table of CONTRACT 5.1, as PROVIDER_PREFIXES still publishes it', () => {
    expect(prefixTable()).toEqual({ ...PROVIDER_PREFIXES });
  });

  it('resolves the aliases: google/ and gemini/ to gemini, vertexai/ and vertex_ai/ to vertex_ai', () => {
    expect(BUILT_IN_PROVIDERS.providerOfPrefix('google')).toBe('gemini');
    expect(BUILT_IN_PROVIDERS.providerOfPrefix('gemini')).toBe('gemini');
    expect(BUILT_IN_PROVIDERS.providerOfPrefix('vertexai')).toBe('vertex_ai');
    expect(BUILT_IN_PROVIDERS.providerOfPrefix('vertex_ai')).toBe('vertex_ai');
  });

  it('knows no other prefix, not even an Object.prototype name', () => {
    expect(BUILT_IN_PROVIDERS.providerOfPrefix('acme')).toBeUndefined();
    expect(BUILT_IN_PROVIDERS.providerOfPrefix('constructor')).toBeUndefined();
    expect(BUILT_IN_PROVIDERS.adapterFor('__proto__')).toBeUndefined();
  });

  it('has an adapter for every built-in name, with reasoning and its name', () => {
    for (const name of BUILT_IN_NAMES) {
      const adapter = BUILT_IN_PROVIDERS.adapterFor(name);
      expect(adapter?.name).toBe(name);
      expect(typeof adapter?.reasoningParams).toBe('function');
    }
  });

  it('is immutable', () => {
    expect(Object.isFrozen(BUILT_IN_PROVIDERS)).toBe(true);
    expect(Object.isFrozen(BUILT_IN_PROVIDERS.prefixes())).toBe(true);
    expect(Object.isFrozen(BUILT_IN_PROVIDERS.names())).toBe(true);
  });
});

describe('createProviderRegistry with user adapters', () => {
  it('adds a provider after the built-ins, by its name and prefixes', () => {
    const registry = createProviderRegistry([acmeAdapter]);
    expect(registry.names()).toEqual([...BUILT_IN_NAMES, 'acme']);
    expect(registry.providerOfPrefix('acme')).toBe('acme');
    expect(registry.providerOfPrefix('acme-cloud')).toBe('acme');
    expect(registry.adapterFor('acme')).toBe(acmeAdapter);
    expect(registry.prefixes()).toEqual([...BUILT_IN_PROVIDERS.prefixes(), 'acme', 'acme-cloud']);
  });

  it('leaves the built-in registry as it was', () => {
    createProviderRegistry([acmeAdapter]);
    expect(BUILT_IN_PROVIDERS.providerOfPrefix('acme')).toBeUndefined();
    expect(BUILT_IN_PROVIDERS.names()).toEqual(BUILT_IN_NAMES);
  });

  it('reaches an adapter that declares no prefixes by its name', () => {
    const { prefixes: _prefixes, ...bare } = acmeAdapter;
    const registry = createProviderRegistry([{ ...bare, name: 'bare' }]);
    expect(registry.providerOfPrefix('bare')).toBe('bare');
    expect(registry.providerOfPrefix('acme')).toBeUndefined();
  });

  it('replaces the built-in adapter of the same name, in its place', () => {
    const mine: ProviderAdapter = { ...openaiAdapter, defaults: { apiBase: 'https://gateway.example/v1' } };
    const registry = createProviderRegistry([mine]);
    expect(registry.adapterFor('openai')).toBe(mine);
    expect(registry.names()).toEqual(BUILT_IN_NAMES);
  });

  it('keeps the built-in prefixes for a replacement that declares none', () => {
    const { prefixes: _prefixes, ...gemini } = BUILT_IN_PROVIDERS.adapterFor('gemini')!;
    const registry = createProviderRegistry([gemini]);
    expect(registry.providerOfPrefix('google')).toBe('gemini');
    expect(registry.adapterFor('gemini')).not.toBe(BUILT_IN_PROVIDERS.adapterFor('gemini'));
  });

  it('gives a replacement only the prefixes it declares', () => {
    const gemini = { ...BUILT_IN_PROVIDERS.adapterFor('gemini')!, prefixes: ['gemini'] };
    const registry = createProviderRegistry([gemini]);
    expect(registry.providerOfPrefix('google')).toBeUndefined();
    expect(registry.providerOfPrefix('gemini')).toBe('gemini');
  });

  it('refuses a prefix claimed by two providers, naming both', () => {
    const problems = problemsOf(() =>
      createProviderRegistry([{ ...acmeAdapter, prefixes: ['acme', 'google'] }]),
    );
    expect(problems).toEqual(['prefix `google/` is claimed by both `gemini` and `acme`']);
  });

  it('refuses the same provider given twice', () => {
    const problems = problemsOf(() => createProviderRegistry([acmeAdapter, acmeAdapter]));
    expect(problems).toEqual(['provider `acme` is given twice']);
  });

  it('lists every problem of a malformed adapter at once', () => {
    const broken = {
      ...acmeAdapter,
      prefixes: ['acme/v2'],
      readError: undefined,
      errorCodes: { acme_busy: 'slow_down' },
    } as unknown as ProviderAdapter;
    const error = (() => {
      try {
        createProviderRegistry([broken]);
      } catch (err) {
        return err as ConfigError;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.message).toMatch(/^Invalid providers:/);
    expect(error?.problems).toEqual([
      '`acme`: `readError` must be a function',
      '`acme`: prefix "acme/v2" must be letters, digits, `_`, `.` or `-` (no `/`)',
      '`acme`: errorCodes.acme_busy is not a router error code: slow_down',
    ]);
  });

  it('refuses an adapter without chat operations or a usable name', () => {
    const problems = problemsOf(() =>
      createProviderRegistry([{ name: '', readError: acmeAdapter.readError } as unknown as ProviderAdapter]),
    );
    expect(problems).toEqual([
      'providers[0].name: expected letters, digits, `_`, `.` or `-`, got ""',
      'providers[0]: `chat` needs `build` and `parse` functions',
      'providers[0]: `chatStream` needs `build` and `parse` functions',
    ]);
  });
});

describe('registry reasoning translation', () => {
  it('translates with the adapter of a name or a prefix', () => {
    const registry = createProviderRegistry([acmeAdapter]);
    expect(registry.reasoningParams('acme', { reasoning_effort: 'high' })).toEqual({
      acme_thinking: { level: 'high' },
    });
    expect(registry.reasoningParams('acme-cloud', { reasoning_effort: 'none' })).toEqual({});
  });

  it('passes the model without its prefix, whatever the prefix is spelled with', () => {
    const seen: string[] = [];
    const registry = createProviderRegistry([
      {
        ...acmeAdapter,
        reasoningParams: (_request, model) => {
          seen.push(model);
          return {};
        },
      },
    ]);
    registry.reasoningParams('acme', { model: 'acme-cloud/acme-large-2' });
    registry.reasoningParams('acme', { model: 'acme-large-2' });
    expect(seen).toEqual(['acme-large-2', 'acme-large-2']);
  });

  it('says so for a provider that declares no reasoning translation', () => {
    const { reasoningParams: _reasoning, ...plain } = acmeAdapter;
    const registry = createProviderRegistry([plain]);
    expect(() => registry.reasoningParams('acme', { reasoning_effort: 'low' })).toThrow(BadRequestError);
    expect(() => registry.reasoningParams('acme', {})).toThrow(
      'provider `acme` declares no reasoning translation (`reasoningParams`)',
    );
  });

  it('names the closest provider or prefix for an unknown one', () => {
    const registry = createProviderRegistry([acmeAdapter]);
    expect(() => registry.reasoningParams('acm', {})).toThrow('did you mean `acme`?');
  });
});

describe('model list validation against a registry', () => {
  const entry = (model: string) => ({ model_name: 'm', svc_params: { model } });

  it('accepts a user prefix when checked against the registry prefixes', () => {
    const schema = deploymentSchemaFor(createProviderRegistry([acmeAdapter]).prefixes());
    expect(schema.safeParse(entry('acme/acme-large')).success).toBe(true);
    expect(schema.safeParse(entry('openai/gpt-4o')).success).toBe(true);
  });

  it('refuses a user prefix in the built-in schema', () => {
    expect(deploymentSchema.safeParse(entry('acme/acme-large')).success).toBe(false);
  });

  it('names the closest registered prefix for a typo', () => {
    const schema = deploymentSchemaFor(createProviderRegistry([acmeAdapter]).prefixes());
    const result = schema.safeParse(entry('acmee/acme-large'));
    expect(result.error?.issues[0]?.message).toMatch(/^unknown provider `acmee\/`; did you mean `acme`\?/);
  });

  it('keeps the rest of the schema: unknown deployment keys are still refused', () => {
    const schema = deploymentSchemaFor(BUILT_IN_PROVIDERS.prefixes());
    expect(schema.safeParse({ ...entry('openai/gpt-4o'), extra: 1 }).success).toBe(false);
    expect(
      schema.safeParse({ model_name: 'm', svc_params: { model: 'openai/x', rpm: 'many' } }).success,
    ).toBe(false);
  });

  it('refuses an Object.prototype name as a prefix', () => {
    expect(deploymentSchema.safeParse(entry('constructor/x')).success).toBe(false);
  });
});
