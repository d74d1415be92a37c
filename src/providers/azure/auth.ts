import { AuthenticationError } from '../../errors/classes.js';
import type { CallOptions, ProviderTarget } from '../shared/provider-adapter.js';
import { runtimeFor } from '../shared/provider-runtime.js';
import { EntraTokenCache, entraCredentialsOf } from './entra-token.js';

const JSON_TYPE = { 'content-type': 'application/json' };

/** The runtime key of a router's Entra token cache: one token per tenant, client and scope serves every deployment. */
const ENTRA_TOKENS = 'azure.entra-tokens';

/**
 * Azure's auth headers, in this order of precedence: svc_params `azure_ad_token` as
 * `Authorization: Bearer`; svc_params `api_key` as `api-key`; Entra ID client credentials (`tenant_id`,
 * `client_id`, `client_secret`) as a Bearer token fetched and cached in the call's runtime (and
 * registered there as a secret); env `AZURE_API_KEY` as `api-key`. With none of them the call fails with
 * an AuthenticationError that names them, before anything is sent. `tokens` replaces the runtime's cache
 * (tests pass one with a fake clock).
 */
export function azureHeaders(
  target: ProviderTarget,
  options: CallOptions,
  tokens?: EntraTokenCache,
): Record<string, string> | Promise<Record<string, string>> {
  const adToken = target.params.azure_ad_token;
  if (typeof adToken === 'string' && adToken) return { ...JSON_TYPE, authorization: `Bearer ${adToken}` };
  if (target.params.api_key) return { ...JSON_TYPE, 'api-key': target.params.api_key };
  const credentials = entraCredentialsOf(target);
  if (credentials) {
    const runtime = runtimeFor(target, options);
    runtime.addSecret(credentials.clientSecret);
    const cache = tokens ?? runtime.shared(ENTRA_TOKENS, () => new EntraTokenCache());
    return cache.token(credentials, target, options).then((token) => {
      runtime.addSecret(token);
      return { ...JSON_TYPE, authorization: `Bearer ${token}` };
    });
  }
  if (target.apiKey) return { ...JSON_TYPE, 'api-key': target.apiKey };
  throw new AuthenticationError(
    `azure/${target.model} has no credentials: set svc_params api_key (or env AZURE_API_KEY), ` +
      'azure_ad_token, or tenant_id + client_id + client_secret',
    { provider: target.provider, model: target.model, modelId: target.modelId },
  );
}
