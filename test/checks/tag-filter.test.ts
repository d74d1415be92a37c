import { describe, expect, it } from 'vitest';
import { tagFilter, tagsOfRequest } from '../../src/checks/tag-filter.js';
import { buildDeployments } from '../../src/config/build-deployments.js';
import { BadRequestError } from '../../src/index.js';
import type { Endpoint, ModelGroup } from '../../src/types/index.js';

/** A group `m` of deployments named by id, each with these `svc_params.tags` (none when undefined). */
function group(deployments: Record<string, string[] | undefined>): ModelGroup {
  const built = buildDeployments(
    Object.entries(deployments).map(([id, tags]) => ({
      model_name: 'm',
      svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test', ...(tags && { tags }) },
      model_info: { id },
    })),
    {},
  );
  const endpoints = built.map((deployment) => ({ deployment }) as Endpoint);
  return { name: 'm', endpoints } as unknown as ModelGroup;
}

/** The ids of the group's deployments the filter admits. */
function admitted(g: ModelGroup, tags: string[]): string[] {
  const admits = tagFilter(g, tags);
  return g.endpoints.filter((e) => admits?.(e) ?? true).map((e) => e.deployment.id);
}

describe('tagFilter', () => {
  const mixed = group({ paid: ['paid'], free: ['free', 'trial'], fallback: ['default'], plain: undefined });

  it('sends a tagged request only to deployments that share one of its tags', () => {
    expect(admitted(mixed, ['paid'])).toEqual(['paid']);
    expect(admitted(mixed, ['trial', 'paid'])).toEqual(['paid', 'free']);
  });

  it('sends an untagged request to the deployments tagged default', () => {
    expect(admitted(mixed, [])).toEqual(['fallback']);
  });

  it('sends an untagged request to any deployment when none is tagged default', () => {
    const g = group({ paid: ['paid'], plain: undefined });
    expect(tagFilter(g, [])).toBeUndefined();
    expect(admitted(g, [])).toEqual(['paid', 'plain']);
  });

  it('admits every deployment (no predicate) when all share the tags', () => {
    expect(tagFilter(group({ a: ['eu'], b: ['eu', 'x'] }), ['eu'])).toBeUndefined();
  });

  it('refuses a tagged request no deployment serves, naming its tags and the group', () => {
    const refusal = () => tagFilter(mixed, ['beta', 'internal']);
    expect(refusal).toThrow(BadRequestError);
    expect(refusal).toThrow('No deployment of model group `m` is tagged `beta` or `internal`');
    try {
      refusal();
    } catch (error) {
      expect((error as BadRequestError).code).toBe('no_deployment_for_tags');
      expect((error as BadRequestError).status).toBe(400);
    }
  });

  it('does not send a tagged request to the default deployments', () => {
    expect(() => tagFilter(group({ fallback: ['default'] }), ['paid'])).toThrow(BadRequestError);
  });
});

describe('tagsOfRequest', () => {
  it('reads metadata.tags', () => {
    expect(tagsOfRequest({ metadata: { tags: ['a', 'b'] } })).toEqual(['a', 'b']);
    expect(tagsOfRequest({})).toEqual([]);
  });

  it('refuses tags that are not a list of strings when strict, naming the field', () => {
    expect(() => tagsOfRequest({ metadata: { tags: 'a,b' } }, true)).toThrow('`metadata.tags`');
    expect(() => tagsOfRequest({ metadata: { tags: ['a', 1] } }, true)).toThrow(BadRequestError);
  });

  it('keeps only the strings when not strict (what a call record reports)', () => {
    expect(tagsOfRequest({ metadata: { tags: ['a', 1] } })).toEqual(['a']);
    expect(tagsOfRequest({ metadata: { tags: 'a' } })).toEqual([]);
  });
});
