import type { ResolvedJwtSettings } from './settings-schema.js';

/**
 * The models a token's scopes grant (spec 5.5): the union of the `models` of every `scope_mappings`
 * entry whose scope the token holds. Empty when none is held: such a token may call no model.
 *
 * @example scopeModels(['models.gpt'], [{ scope: 'models.gpt', models: ['gpt-4o'] }]) // => ['gpt-4o']
 */
export function scopeModels(
  scopes: readonly string[],
  mappings: ResolvedJwtSettings['scope_mappings'],
): string[] {
  const held = new Set(scopes);
  const models = new Set<string>();
  for (const mapping of mappings) {
    if (held.has(mapping.scope)) for (const model of mapping.models) models.add(model);
  }
  return [...models];
}
