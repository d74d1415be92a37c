import type { ProviderTarget } from '../shared/provider-adapter.js';

const cache = new WeakMap<ProviderTarget, Record<string, string>>();

/**
 * OpenRouter's headers: Bearer auth plus the app attribution OpenRouter shows in its rankings,
 * `HTTP-Referer` (svc_params `openrouter_site_url`, else env `OR_SITE_URL`) and `X-Title` (svc_params
 * `openrouter_app_name`, else env `OR_APP_NAME`). Read once per deployment.
 */
export function openrouterHeaders(
  target: ProviderTarget,
  env: NodeJS.ProcessEnv = target.env,
): Record<string, string> {
  let headers = cache.get(target);
  if (headers) return headers;
  headers = { 'content-type': 'application/json' };
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
  const site = target.params.openrouter_site_url ?? env.OR_SITE_URL;
  const app = target.params.openrouter_app_name ?? env.OR_APP_NAME;
  if (typeof site === 'string' && site) headers['HTTP-Referer'] = site;
  if (typeof app === 'string' && app) headers['X-Title'] = app;
  cache.set(target, headers);
  return headers;
}
