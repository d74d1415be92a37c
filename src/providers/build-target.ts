import type { Deployment } from '../types/index.js';
import type { ProviderAdapter, ProviderTarget } from './shared/provider-adapter.js';

// svc_params keys whose values are credentials, wherever they sit (`aws_secret_access_key`, `client_secret`,
// `azure_ad_token`, `vertex_credentials`, ...)
const SECRET_KEY = /(key|secret|token|password|credentials)$/i;

/** A credentials document (service-account JSON, as an object or as JSON text), or undefined. */
function credentialsDocument(value: unknown): Record<string, unknown> | undefined {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value !== 'string' || !value.trimStart().startsWith('{')) return undefined;
  try {
    return JSON.parse(value) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function secretsOf(params: Readonly<Record<string, unknown>>, apiKey: string | undefined): string[] {
  const secrets = new Set<string>();
  if (apiKey) secrets.add(apiKey);
  for (const [key, value] of Object.entries(params)) {
    if (!SECRET_KEY.test(key) || key === 'api_key') continue;
    if (typeof value === 'string' && value.length >= 8) secrets.add(value);
    // a credentials document: only its secret fields (private_key, client_secret, ...), not its URLs
    for (const [field, inner] of Object.entries(credentialsDocument(value) ?? {})) {
      if (SECRET_KEY.test(field) && typeof inner === 'string' && inner.length >= 8) secrets.add(inner);
    }
  }
  return [...secrets];
}

const namesOf = (names: string | readonly string[] | undefined): readonly string[] =>
  typeof names === 'string' ? [names] : (names ?? []);

function envKey(names: string | readonly string[] | undefined, env: NodeJS.ProcessEnv): string | undefined {
  for (const name of namesOf(names)) if (env[name]) return env[name];
  return undefined;
}

/**
 * What is missing when a deployment would call its provider's own default endpoint without a key: no
 * `api_base`, no `api_key`, none of the provider's key variables set, and no `mock_response`. A
 * deployment with `api_base` needs none (local OpenAI-compatible servers often take no key); providers
 * without a default endpoint (Azure, hosted vLLM), with an optional key (LM Studio) or with their own
 * credential chain (Vertex AI, Bedrock) are not checked here. Undefined when nothing is missing.
 */
export function missingApiKey(
  deployment: Deployment,
  adapter: ProviderAdapter,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const { apiBase, apiKeyEnv, apiKeyOptional } = adapter.defaults ?? {};
  const { params } = deployment;
  if (
    !apiBase ||
    !apiKeyEnv ||
    apiKeyOptional ||
    params.api_base ||
    params.api_key ||
    params.mock_response !== undefined
  )
    return undefined;
  if (envKey(apiKeyEnv, env)) return undefined;
  const names = namesOf(apiKeyEnv);
  return (
    `no api key for ${deployment.provider}: set svc_params.api_key (e.g. \`os.environ/${names[0]}\`) ` +
    `or the ${names.join(' or ')} environment variable`
  );
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
  const target: ProviderTarget = {
    provider: deployment.provider,
    model: deployment.providerModel,
    modelId: deployment.id,
    apiBase,
    apiKey,
    apiVersion: params.api_version,
    params,
    env,
    secrets: secretsOf(params, apiKey),
  };
  const more = adapter.secrets?.(target) ?? [];
  return Object.freeze(more.length > 0 ? { ...target, secrets: [...target.secrets, ...more] } : target);
}
