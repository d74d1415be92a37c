import type { ProviderName } from '../types/index.js';
import { anthropicAdapter } from './anthropic/index.js';
import { azureAdapter } from './azure/index.js';
import { bedrockAdapter } from './bedrock/index.js';
import { deepseekAdapter } from './deepseek/index.js';
import { geminiAdapter } from './gemini/index.js';
import { openaiAdapter } from './openai/adapter.js';
import { openrouterAdapter } from './openrouter/index.js';
import type { ProviderAdapter } from './shared/provider-adapter.js';
import { vertexAdapter } from './vertex_ai/index.js';
import { xaiAdapter } from './xai/index.js';

// One entry per provider folder. A provider missing here fails at Router construction, naming it.
const adapters: Partial<Record<ProviderName, ProviderAdapter>> = {
  openai: openaiAdapter,
  azure: azureAdapter,
  deepseek: deepseekAdapter,
  xai: xaiAdapter,
  openrouter: openrouterAdapter,
  anthropic: anthropicAdapter,
  bedrock: bedrockAdapter,
  gemini: geminiAdapter,
  vertex_ai: vertexAdapter,
};

/** The adapter for a provider, or undefined when this version has none. */
export function adapterFor(provider: ProviderName): ProviderAdapter | undefined {
  return adapters[provider];
}
