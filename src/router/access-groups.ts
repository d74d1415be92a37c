import type { ModelGroup } from '../types/index.js';

/**
 * Access groups of a model list: each name in some deployment's `model_info.access_groups`, with the
 * model groups that have a deployment in it.
 */
export type AccessGroups = ReadonlyMap<string, ReadonlySet<string>>;

/** No access groups: what a model list without `model_info.access_groups` has. */
export const NO_ACCESS_GROUPS: AccessGroups = new Map();

/** The access groups of these model groups (pure; the router builds it once per config). */
export function accessGroupsOf(groups: Iterable<ModelGroup>): AccessGroups {
  const out = new Map<string, Set<string>>();
  for (const group of groups) {
    for (const { deployment } of group.endpoints) {
      for (const name of deployment.info.access_groups ?? []) {
        const members = out.get(name) ?? new Set<string>();
        members.add(group.name);
        out.set(name, members);
      }
    }
  }
  return out.size === 0 ? NO_ACCESS_GROUPS : out;
}
