import { BadRequestError } from '../errors/classes.js';
import type { Deployment, Endpoint, ModelGroup } from '../types/index.js';

/** The tag that marks the deployments serving untagged requests under `enable_tag_filtering`. */
export const DEFAULT_TAG = 'default';

const NONE: readonly string[] = Object.freeze([]);

/**
 * A request's tags, `metadata.tags`: empty when it has none. `strict`: throws BadRequestError naming the
 * field when it is not a list of strings (tag filtering routes by it); otherwise what is not a string
 * is left out (a call record only reports them).
 */
export function tagsOfRequest(request: Readonly<Record<string, unknown>>, strict = false): readonly string[] {
  const metadata = request.metadata as Record<string, unknown> | undefined;
  const tags = metadata?.tags;
  if (tags === undefined || tags === null) return NONE;
  if (Array.isArray(tags) && tags.every((t) => typeof t === 'string')) return tags;
  if (strict) {
    throw new BadRequestError(`\`metadata.tags\`: expected a list of strings, got ${JSON.stringify(tags)}`, {
      code: 'bad_request',
    });
  }
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : NONE;
}

/** A deployment's `svc_params.tags`. */
export function tagsOfDeployment(deployment: Deployment): readonly string[] {
  const tags = deployment.params.tags;
  return Array.isArray(tags) ? tags : NONE;
}

const shares = (deployment: Deployment, tags: readonly string[]): boolean =>
  tagsOfDeployment(deployment).some((tag) => tags.includes(tag));

/**
 * `enable_tag_filtering` on one group (pure): a tagged request may go only to deployments whose
 * `svc_params.tags` share one of its tags; an untagged one to those tagged `default`, else to any.
 * Returns which endpoints may serve, or undefined when every one may. Throws BadRequestError
 * (`no_deployment_for_tags`) naming the tags when a tagged request matches no deployment of the group.
 *
 * @example
 * // deployments tagged ['paid'], ['free'] and ['default']
 * tagFilter(group, ['free']);  // admits the `free` deployment only
 * tagFilter(group, []);        // admits the `default` one only
 * tagFilter(group, ['beta']);  // throws: no deployment of the group is tagged beta
 */
export function tagFilter(
  group: ModelGroup,
  tags: readonly string[],
): ((e: Endpoint) => boolean) | undefined {
  const { endpoints } = group;
  if (tags.length === 0) {
    const defaults = [DEFAULT_TAG];
    return endpoints.some((e) => shares(e.deployment, defaults))
      ? (e) => shares(e.deployment, defaults)
      : undefined;
  }
  if (!endpoints.some((e) => shares(e.deployment, tags))) {
    throw new BadRequestError(
      `No deployment of model group \`${group.name}\` is tagged ${tags.map((t) => `\`${t}\``).join(' or ')} ` +
        '(enable_tag_filtering): tag a deployment with `svc_params.tags`, or send other tags.',
      { model: group.name, code: 'no_deployment_for_tags' },
    );
  }
  return endpoints.every((e) => shares(e.deployment, tags)) ? undefined : (e) => shares(e.deployment, tags);
}
