import type { Deployment } from '../types/index.js';
import type { ProviderAdapter, ProviderTarget } from './shared/provider-adapter.js';

// svc_params keys whose values are credentials, wherever they sit (`aws_secret_access_key`, `client_secret`,
// `azure_ad_token`, `vertex_credentials`, ...)
const SECRET_KEY = /(key|secret|token|password|credentials)$/i;

function secretsOf(params: Readonly<Record<string, unknown>>, apiKey: string | undefined): string[] {
  const secrets = new Set<string>();
  if (apiKey) secrets.add(apiKey);
  for (const [key, value] of Object.entries(params)) {
    if (!SECRET_KEY.test(key) || key === 'api_key') continue;
    if (typeof value === 'string' && value.length >= 8) secrets.add(value);
    else if (value && typeof value === 'object') {
      // a credentials object (service-account JSON): its private key is the secret
      for (const inner of Object.values(value))
        if (typeof inner === 'string' && inner.length >= 16) secrets.add(inner);
    }
  }
  return [...secrets];
}

function envKey(names: string | readonly string[] | undefined, env: NodeJS.ProcessEnv): string | undefined {
  for (const name of typeof names === 'string' ? [names] : (names ?? [])) if (env[name]) return env[name];
  return undefined;
}

/** Everything an adapter needs about a deployment, derived once (defaults and env read here, not per call). */
export function buildTarget(
  deployment: Deployment,
  adapter: ProviderAdapter,
  env: NodeJS.ProcessEnv = process.env,
): ProviderTarget {
  const { params } = deployment;
  const apiBase = (params.api_base ?? adapter.defaults?.apiBase)?.replace(/\/+$/, '');
  const apiKey = params.api_key ?? envKey(adapter.defaults?.apiKeyEnv, env);
  return Object.freeze({
    provider: deployment.provider,
    model: deployment.providerModel,
    modelId: deployment.id,
    apiBase,
    apiKey,
    apiVersion: params.api_version,
    params,
    env,
    secrets: secretsOf(params, apiKey),
  });
}
