import { LRUCache } from 'lru-cache';
import type { Deployment, Endpoint, ModelGroup } from '../types/index.js';

/** Whether a `model_name` is a wildcard pattern (`openai/*`, `claude-*`, `*`): it ends in `*`. */
export function isWildcardName(name: string): boolean {
  return name.endsWith('*');
}

/** The wildcard pattern that serves a model, and the part of the model its `*` stands for. */
export interface WildcardMatch {
  /** The `model_name` pattern, e.g. `openai/*`. */
  pattern: string;
  /** What the `*` matched, e.g. `gpt-4o` for `openai/gpt-4o` on `openai/*`. */
  matched: string;
}

/**
 * The pattern among `patterns` (each a `model_name` ending in `*`) that serves `model`: the one whose
 * text before the `*` is the longest prefix of `model`, the `*` matching at least one character. Exact
 * groups are the caller's to try first; this only ranks the patterns.
 *
 * @example
 * matchWildcard('openai/gpt-4o', ['*', 'openai/*']); // { pattern: 'openai/*', matched: 'gpt-4o' }
 * matchWildcard('openai/', ['openai/*']); // undefined (the `*` matches nothing)
 */
export function matchWildcard(model: string, patterns: Iterable<string>): WildcardMatch | undefined {
  let best: WildcardMatch | undefined;
  for (const pattern of patterns) {
    const prefix = pattern.slice(0, -1);
    if (model.length <= prefix.length || !model.startsWith(prefix)) continue;
    if (best === undefined || prefix.length > best.pattern.length - 1)
      best = { pattern, matched: model.slice(prefix.length) };
  }
  return best;
}

/** `svc_params.model` of a wildcard deployment with each `*` replaced by the matched part. */
export function fillWildcard(svcModel: string, matched: string): string {
  return svcModel.replaceAll('*', matched);
}

/**
 * Builds the concrete endpoint of a wildcard deployment for one requested model: its `svc_params.model`
 * filled in, its prices, context window and facts from the catalog for that model. Undefined when the
 * filled model names no known provider (the call then fails as an unknown model).
 */
export type BuildWildcardEndpoint = (
  template: Deployment,
  model: string,
  match: WildcardMatch,
) => Endpoint | undefined;

/**
 * The wildcard deployments (`model_name` ending in `*`) by pattern, and the groups they make for the
 * models they serve: each requested model's group is built once (catalog lookups included) and kept,
 * so a call on it costs one map lookup. Not listed among the model groups.
 */
export class WildcardGroups {
  readonly #templates = new Map<string, Deployment[]>();
  readonly #built = new LRUCache<string, ModelGroup | false>({ max: 512 });

  constructor(
    templates: readonly Deployment[],
    private readonly build: BuildWildcardEndpoint,
    private readonly groupOf: (name: string, endpoints: readonly Endpoint[]) => ModelGroup,
  ) {
    for (const t of templates) {
      const list = this.#templates.get(t.modelName);
      if (list) list.push(t);
      else this.#templates.set(t.modelName, [t]);
    }
  }

  /** Whether there are any. */
  get size(): number {
    return this.#templates.size;
  }

  /** Every wildcard deployment. */
  *deployments(): IterableIterator<Deployment> {
    for (const list of this.#templates.values()) yield* list;
  }

  /** The pattern that would serve `model` (exact groups aside). */
  match(model: string): WildcardMatch | undefined {
    return this.#templates.size === 0 ? undefined : matchWildcard(model, this.#templates.keys());
  }

  /** The group serving `model` through a wildcard, built on first use. */
  group(model: string): ModelGroup | undefined {
    const cached = this.#built.get(model);
    if (cached !== undefined) return cached || undefined;
    const match = this.match(model);
    if (match === undefined) return undefined;
    const endpoints: Endpoint[] = [];
    for (const template of this.#templates.get(match.pattern)!) {
      const endpoint = this.build(template, model, match);
      if (endpoint) endpoints.push(endpoint);
    }
    const group = endpoints.length > 0 ? this.groupOf(model, endpoints) : undefined;
    this.#built.set(model, group ?? false);
    return group;
  }
}
