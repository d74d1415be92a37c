import { LRUCache } from 'lru-cache';
import { parallelLimitOf } from '../checks/parallel-limit.js';
import { buildDeployment, type ModelListRules, modelListRules } from '../config/build-deployments.js';
import { deploymentHash } from '../config/model-id.js';
import type { UserCostMap } from '../cost/cost-map-file.js';
import { ConfigError } from '../errors/config-error.js';
import { buildTarget } from '../providers/build-target.js';
import type { ProviderRegistry } from '../providers/registry.js';
import type { Deployment, Endpoint, ModelGroup, Tier } from '../types/index.js';
import { fillWildcard, isWildcardName, WildcardGroups, type WildcardMatch } from './wildcard-groups.js';

export type { ModelGroup, Tier };

/** The settings endpoints take their defaults from. Times are seconds, as in settings. */
export interface RegistryOptions {
  timeout: number;
  streamTimeout: number | undefined;
  firstTokenTimeout: number | undefined;
  streamTotalTimeout: number | undefined;
  cooldownTime: number;
  defaultMaxParallelRequests: number | undefined;
  passThrough: boolean;
  defaultParams: Readonly<Record<string, unknown>>;
  env: NodeJS.ProcessEnv;
  /** The adapters, built-in and the user's. */
  providers: ProviderRegistry;
  /** Whether a group of one has fallbacks configured, so its deployment may be cooled. */
  hasFallbacks(group: string): boolean;
  /** The `model_cost_map` file, for the deployments of pass-through models. */
  costMap?: UserCostMap | undefined;
}

/** The overall bound of a stream when none is set: generous, but never unbounded. */
const DEFAULT_STREAM_TOTAL_SECONDS = 1800;

function tiersOf(endpoints: readonly Endpoint[]): Tier[] {
  const byOrder = new Map<number, Endpoint[]>();
  for (const e of endpoints) {
    const order = e.deployment.params.order ?? Number.POSITIVE_INFINITY;
    const tier = byOrder.get(order);
    if (tier) tier.push(e);
    else byOrder.set(order, [e]);
  }
  return [...byOrder.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, tier]) => ({ endpoints: tier, deployments: tier.map((e) => e.deployment) }));
}

/**
 * Holds the deployments by id and by model group, each with its provider adapter and target derived
 * once. With `pass_through_all_models`, also builds (and caches) deployments for unlisted
 * `<provider>/<model>` names.
 */
export class DeploymentRegistry {
  readonly #groups = new Map<string, ModelGroup>();
  readonly #byId = new Map<string, Endpoint>();
  readonly #passThrough = new LRUCache<string, ModelGroup>({ max: 256 });
  readonly #wildcards: WildcardGroups;
  #rules: ModelListRules | undefined;

  constructor(
    deployments: readonly Deployment[],
    private readonly options: RegistryOptions,
  ) {
    const problems: string[] = [];
    const grouped = new Map<string, Endpoint[]>();
    const templates: Deployment[] = [];
    deployments.forEach((deployment, index) => {
      if (isWildcardName(deployment.modelName)) {
        templates.push(deployment);
        return;
      }
      const endpoint = this.#endpointOf(deployment, `model_list[${index}]`, problems);
      if (!endpoint) return;
      this.#byId.set(deployment.id, endpoint);
      const list = grouped.get(deployment.modelName);
      if (list) list.push(endpoint);
      else grouped.set(deployment.modelName, [endpoint]);
    });
    if (problems.length > 0) throw new ConfigError('model list', problems);
    for (const [name, endpoints] of grouped) this.#groups.set(name, this.#groupOf(name, endpoints));
    this.#wildcards = new WildcardGroups(
      templates,
      (template, model, match) => this.#wildcardEndpoint(template, model, match),
      (name, endpoints) => this.#groupOf(name, endpoints),
    );
  }

  #groupOf(name: string, endpoints: readonly Endpoint[]): ModelGroup {
    const billable = endpoints.filter((e) => e.deployment.cost.billable).length;
    return Object.freeze({
      name,
      endpoints,
      tiers: tiersOf(endpoints),
      ids: endpoints.map((e) => e.deployment.id),
      coolable: endpoints.length > 1 || this.options.hasFallbacks(name),
      billable: billable === endpoints.length ? 'all' : billable === 0 ? 'none' : 'some',
    });
  }

  /**
   * Whether a call charged to a budget can meet a deployment it may not use: a listed one with neither a
   * price nor `allow_unpriced`, or (with pass-through on) any model.
   */
  get anyUnbillable(): boolean {
    if (this.options.passThrough || this.#wildcards.size > 0) return true;
    for (const g of this.#groups.values()) if (g.billable !== 'all') return true;
    return false;
  }

  /** Whether any endpoint has a concurrency limit. */
  get limited(): boolean {
    for (const e of this.#byId.values()) if (e.parallelLimit !== undefined) return true;
    const fallback = this.options.defaultMaxParallelRequests;
    for (const d of this.#wildcards.deployments())
      if (parallelLimitOf(d, fallback) !== undefined) return true;
    return false;
  }

  /** Whether any group has more than one `order` tier. */
  get tiered(): boolean {
    for (const g of this.#groups.values()) if (g.tiers.length > 1) return true;
    const orders = new Map<string, Set<number | undefined>>();
    for (const d of this.#wildcards.deployments()) {
      const seen = orders.get(d.modelName) ?? new Set();
      seen.add(d.params.order);
      orders.set(d.modelName, seen);
      if (seen.size > 1) return true;
    }
    return false;
  }

  #endpointOf(deployment: Deployment, where: string, problems: string[]): Endpoint | undefined {
    const adapter = this.options.providers.adapterFor(deployment.provider);
    if (!adapter) {
      problems.push(
        `${where}.svc_params.model: provider \`${deployment.provider}\` is not available in this version`,
      );
      return undefined;
    }
    const { params } = deployment;
    const o = this.options;
    const timeout = params.timeout ?? o.timeout;
    const firstToken = params.first_token_timeout ?? o.firstTokenTimeout;
    const target = buildTarget(deployment, adapter, this.options.env);
    const invalid = adapter.validate?.(target) ?? [];
    if (invalid.length > 0) {
      problems.push(...invalid.map((problem) => `${where}: ${problem}`));
      return undefined;
    }
    return Object.freeze({
      deployment,
      adapter,
      target,
      timeoutMs: timeout * 1000,
      streamTimeoutMs: (params.stream_timeout ?? o.streamTimeout ?? timeout) * 1000,
      firstTokenTimeoutMs: firstToken === undefined ? undefined : firstToken * 1000,
      streamTotalTimeoutMs:
        (params.stream_total_timeout ??
          o.streamTotalTimeout ??
          Math.max(DEFAULT_STREAM_TOTAL_SECONDS, timeout)) * 1000,
      cooldownMs: (params.cooldown_time ?? o.cooldownTime) * 1000,
      parallelLimit: parallelLimitOf(deployment, o.defaultMaxParallelRequests),
    });
  }

  /**
   * The group for a model name: a listed group, else the longest wildcard pattern matching it, else (with
   * pass-through on) an unlisted `<provider>/<model>`.
   */
  group(model: string): ModelGroup | undefined {
    return (
      this.#groups.get(model) ??
      this.#wildcards.group(model) ??
      (this.options.passThrough ? this.#passThroughGroup(model) : undefined)
    );
  }

  /** Whether some `model_name` is a wildcard pattern. */
  get hasWildcards(): boolean {
    return this.#wildcards.size > 0;
  }

  /** The wildcard pattern serving `model`, when no listed group has its name. */
  wildcardFor(model: string): string | undefined {
    return this.#groups.has(model) ? undefined : this.#wildcards.match(model)?.pattern;
  }

  /** A wildcard deployment made concrete for `model`: built (and priced) like a listed one. */
  #wildcardEndpoint(template: Deployment, model: string, match: WildcardMatch): Endpoint | undefined {
    const written = template.entry;
    const filled = fillWildcard(written.svc_params.model, match.matched);
    const slash = filled.indexOf('/');
    if (slash <= 0 || this.options.providers.providerOfPrefix(filled.slice(0, slash)) === undefined)
      return undefined;
    const where = `model \`${model}\` (model_name \`${match.pattern}\`)`;
    this.#rules ??= modelListRules(this.options.providers, this.options.costMap);
    const templated = filled !== written.svc_params.model;
    const { id: _id, ...info } = written.model_info;
    // the id the user gave it, per model; else the hash of the filled params, as a listed one would get
    const ownId = !templated || template.id !== deploymentHash(written.svc_params);
    const { deployment, problems } = buildDeployment(
      {
        model_name: model,
        svc_params: { ...written.svc_params, model: filled },
        model_info: ownId
          ? { ...info, id: templated ? `${template.id}:${match.matched}` : template.id }
          : info,
      },
      where,
      this.options.defaultParams,
      this.options.env,
      this.#rules,
    );
    if (!deployment) throw new ConfigError('wildcard model', problems);
    const endpoint = this.#endpointOf(deployment, where, problems);
    if (!endpoint) throw new ConfigError('wildcard model', problems);
    return endpoint;
  }

  #passThroughGroup(model: string): ModelGroup | undefined {
    const cached = this.#passThrough.get(model);
    if (cached) return cached;
    const slash = model.indexOf('/');
    if (slash <= 0 || this.options.providers.providerOfPrefix(model.slice(0, slash)) === undefined)
      return undefined;
    this.#rules ??= modelListRules(this.options.providers, this.options.costMap);
    const { deployment, problems } = buildDeployment(
      { model_name: model, svc_params: { model } },
      `model \`${model}\``,
      this.options.defaultParams,
      this.options.env,
      this.#rules,
    );
    if (!deployment) throw new ConfigError('pass-through model', problems);
    const endpoint = this.#endpointOf(deployment, `model \`${model}\``, problems);
    if (!endpoint) throw new ConfigError('pass-through model', problems);
    const group = this.#groupOf(model, [endpoint]);
    this.#passThrough.set(model, group);
    return group;
  }

  /** The endpoint of a `model_id`. */
  byId(id: string): Endpoint | undefined {
    return this.#byId.get(id);
  }

  /** Every listed model group. */
  groups(): IterableIterator<ModelGroup> {
    return this.#groups.values();
  }

  /** Names of the listed model groups. */
  groupNames(): string[] {
    return [...this.#groups.keys()];
  }
}
