import type { ErrorContext } from '../../errors/map-error.js';
import type { ProviderTarget } from './provider-adapter.js';

/** The context of every error about a target: who was called, and every secret to keep out of messages. */
export function errorContextOf(target: ProviderTarget, extraSecrets: readonly string[] = []): ErrorContext {
  return {
    provider: target.provider,
    model: target.model,
    modelId: target.modelId,
    secrets: [target.apiKey, ...(target.secrets ?? []), ...extraSecrets],
  };
}
