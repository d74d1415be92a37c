import type { Deployment } from '../types/index.js';
import type { ProviderAdapter, ProviderTarget } from './shared/provider-adapter.js';

/** Everything an adapter needs about a deployment, derived once (defaults and env read here, not per call). */
export function buildTarget(
  deployment: Deployment,
  adapter: ProviderAdapter,
  env: NodeJS.ProcessEnv = process.env,
): ProviderTarget {
  const { params } = deployment;
  const keyEnv = adapter.defaults?.apiKeyEnv;
  const apiBase = (params.api_base ?? adapter.defaults?.apiBase)?.replace(/\/+$/, '');
  return Object.freeze({
    provider: deployment.provider,
    model: deployment.providerModel,
    modelId: deployment.id,
    apiBase,
    apiKey: params.api_key ?? (keyEnv ? env[keyEnv] : undefined),
    apiVersion: params.api_version,
    params,
  });
}
