import type { ResolvedSettings } from './settings-schema.js';

/** One entry of `routing_groups` as validated by the settings schema. */
export type RoutingGroupSetting = NonNullable<ResolvedSettings['routing_groups']>[number];

/** The name of the implicit group of every model outside `routing_groups` (spec 10.3). */
export const DEFAULT_ROUTING_GROUP = 'default';

/**
 * What is wrong with `routing_groups`, one line per problem: a group named `default` (the implicit
 * group of every other model), two groups of one name, a `model_name` in two groups (naming the model
 * and both groups). Empty when they are fine. Pure.
 */
export function routingGroupProblems(groups: readonly RoutingGroupSetting[]): string[] {
  const problems: string[] = [];
  const groupAt = new Map<string, number>();
  const modelIn = new Map<string, number>();
  groups.forEach((group, index) => {
    const name = group.group_name;
    if (name === DEFAULT_ROUTING_GROUP) {
      problems.push(
        `routing_groups[${index}].group_name: \`${DEFAULT_ROUTING_GROUP}\` is reserved for the models outside every group`,
      );
    }
    const earlier = groupAt.get(name);
    if (earlier !== undefined) {
      problems.push(
        `routing_groups[${index}].group_name: \`${name}\` is already the name of routing_groups[${earlier}]`,
      );
    } else groupAt.set(name, index);
    for (const model of new Set(group.models)) {
      const first = modelIn.get(model);
      if (first === undefined) {
        modelIn.set(model, index);
        continue;
      }
      problems.push(
        `routing_groups[${index}].models: model \`${model}\` is in two routing groups, \`${groups[first]!.group_name}\` (routing_groups[${first}]) and \`${name}\` (routing_groups[${index}]); a model may be in at most one`,
      );
    }
  });
  return problems;
}
