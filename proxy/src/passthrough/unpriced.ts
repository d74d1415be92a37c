import { catalogCost } from '@svc/router';
import { ProxyError } from '../http/proxy-error.js';
import type { PassThroughEndpoint } from './settings.js';

/**
 * The refusal of a call charged to a budget whose answer the endpoint cannot price (no `provider` to
 * read its usage, or a model the catalog has no price for), or undefined when it may go: a budget
 * that cannot count a call cannot hold it, so such a call is refused before it is forwarded (as chat
 * calls on unpriced deployments are), unless the endpoint says `allow_unpriced: true`.
 */
export function unpricedRefusal(
  endpoint: PassThroughEndpoint,
  model: string | undefined,
  budgeted: boolean,
): ProxyError | undefined {
  if (!budgeted || endpoint.allow_unpriced) return undefined;
  const { provider } = endpoint;
  if (provider && model !== undefined && catalogCost(provider, model, {}).priced) return undefined;
  const what = !provider
    ? 'names no `provider`, so its answers are not read for usage'
    : model === undefined
      ? 'found no model in the request to price'
      : `has no catalog price for \`${provider}/${model}\``;
  return new ProxyError(
    400,
    'model_unpriced',
    `The pass-through endpoint \`${endpoint.path}\` ${what}, and this call is charged to a budget, so it ` +
      'cannot be counted: call a model the catalog prices, or set `allow_unpriced: true` on the endpoint ' +
      'to let budgeted calls through at no cost.',
  );
}
