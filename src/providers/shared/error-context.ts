import type { ErrorContext } from '../../errors/map-error.js';
import type { ProviderTarget } from './provider-adapter.js';
import { runtimeSecretsOf } from './provider-runtime.js';

/**
 * The context of every error about a target: who was called, and every secret to keep out of messages:
 * the deployment's credentials, what its runtime fetched for it (access tokens, signed assertions) and
 * `extraSecrets`. `redactSecrets` removes each in every encoding a provider may echo.
 */
export function errorContextOf(target: ProviderTarget, extraSecrets: readonly string[] = []): ErrorContext {
  return {
    provider: target.provider,
    model: target.model,
    modelId: target.modelId,
    secrets: [target.apiKey, ...(target.secrets ?? []), ...runtimeSecretsOf(target), ...extraSecrets],
  };
}
