import type { Deployment } from '../types/index.js';

/**
 * The one warning naming the deployments that have no price and were not named before (`warned`,
 * updated): their calls cost 0, and calls charged to a budget may not use them. Undefined when there
 * are none.
 */
export function unpricedWarning(
  deployments: readonly Deployment[],
  warned: Set<string>,
): { message: string; fields: { unpriced: string[] } } | undefined {
  // a wildcard deployment (`model_name` ending in `*`) is priced per model it serves, from the catalog
  const fresh = deployments.filter((d) => !d.cost.priced && !d.modelName.endsWith('*') && !warned.has(d.id));
  if (fresh.length === 0) return undefined;
  for (const d of fresh) warned.add(d.id);
  const names = fresh.map((d) => `${d.modelName} (${d.provider}/${d.providerModel})`);
  return {
    message:
      `${fresh.length === 1 ? '1 deployment has' : `${fresh.length} deployments have`} no price, so ` +
      `their calls cost 0 and calls charged to a budget may not use them: ${names.join(', ')}. ` +
      'Set input_cost_per_token/output_cost_per_token on the deployment or in model_cost_map, or ' +
      'model_info.allow_unpriced: true.',
    fields: { unpriced: names },
  };
}
