/**
 * Provider names as they appear in `_hidden_params.custom_llm_provider` and `getModelGroupInfo()`
 * (CONTRACT 5.1). Prefix aliases (`google/`, `vertexai/`) resolve to these.
 */
export type ProviderName =
  | 'openai'
  | 'azure'
  | 'anthropic'
  | 'gemini'
  | 'vertex_ai'
  | 'bedrock'
  | 'deepseek'
  | 'xai'
  | 'openrouter';

/** Every model prefix a deployment may use, with the provider it names. */
export const PROVIDER_PREFIXES: Readonly<Record<string, ProviderName>> = Object.freeze({
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
