/**
 * The providers this version ships an adapter for, as they appear in `_hidden_params.custom_llm_provider`
 * and `getModelGroupInfo()` (CONTRACT 5.1). Prefix aliases (`google/`, `vertexai/`) resolve to these.
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
  | 'openrouter';

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
});
