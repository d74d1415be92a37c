/**
 * The providers this version ships an adapter for, as they appear in `_hidden_params.custom_llm_provider`
 * and `getModelGroupInfo()` (CONTRACT 5.1, 6.7). Prefix aliases (`google/`, `vertexai/`) resolve to these;
 * an OpenAI-compatible host's name is its prefix without the `/`.
 */
export type BuiltInProviderName =
  | 'openai'
  | 'azure'
  | 'anthropic'
  | 'gemini'
  | 'vertex_ai'
  | 'bedrock'
  | 'deepseek'
  | 'xai'
  | 'openrouter'
  | 'groq'
  | 'mistral'
  | 'together_ai'
  | 'fireworks_ai'
  | 'cerebras'
  | 'perplexity'
  | 'deepinfra'
  | 'ollama'
  | 'lm_studio'
  | 'hosted_vllm';

/**
 * A provider name: a built-in one, or the name of a provider adapter given to the router
 * (`RouterDependencies.providers`). The `string & {}` keeps editors offering the built-in names.
 */
export type ProviderName = BuiltInProviderName | (string & {});

/**
 * Every model prefix of a built-in provider, with the provider it names.
 *
 * @deprecated The adapters declare their prefixes (`ProviderAdapter.prefixes`); ask a provider registry
 * (`createProviderRegistry().providerOfPrefix(prefix)`), which also knows the router's own adapters.
 * Kept equal to the built-in registry's table by a test.
 */
export const PROVIDER_PREFIXES: Readonly<Record<string, BuiltInProviderName>> = Object.freeze({
  openai: 'openai',
  azure: 'azure',
  anthropic: 'anthropic',
  google: 'gemini',
  gemini: 'gemini',
  vertex_ai: 'vertex_ai',
  vertexai: 'vertex_ai',
  bedrock: 'bedrock',
  deepseek: 'deepseek',
  xai: 'xai',
  openrouter: 'openrouter',
  groq: 'groq',
  mistral: 'mistral',
  together_ai: 'together_ai',
  fireworks_ai: 'fireworks_ai',
  cerebras: 'cerebras',
  perplexity: 'perplexity',
  deepinfra: 'deepinfra',
  ollama: 'ollama',
  lm_studio: 'lm_studio',
  hosted_vllm: 'hosted_vllm',
});
