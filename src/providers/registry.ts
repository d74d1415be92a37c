import type { ProviderName } from '../types/index.js';
import { openaiAdapter } from './openai/adapter.js';
import type { ProviderAdapter } from './shared/provider-adapter.js';

// One entry per provider folder. A provider missing here fails at Router construction, naming it.
const adapters: Partial<Record<ProviderName, ProviderAdapter>> = {
  openai: openaiAdapter,
};

/** The adapter for a provider, or undefined when this version has none. */
export function adapterFor(provider: ProviderName): ProviderAdapter | undefined {
  return adapters[provider];
}
