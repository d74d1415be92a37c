import { hasMinuteLimits } from '../checks/minute-limits.js';
import { buildDeployments } from '../config/build-deployments.js';
import { destinationsOf } from '../config/callback-setting.js';
import { checkFallbackNames } from '../config/check-fallbacks.js';
import { checkMirrorNames } from '../config/check-mirrors.js';
import { ConfigError } from '../config/config-error.js';
import { parseSettings } from '../config/parse-settings.js';
import type { ResolvedSettings, RouterSettings } from '../config/settings-schema.js';
import type { CooldownSettings } from '../cooldown/cooldown-tracker.js';
import { readCostMapFile } from '../cost/cost-map-file.js';
import { unpricedWarning } from '../cost/unpriced-warning.js';
import type { NoDeploymentsAvailableError } from '../errors/classes.js';
import type { RouterError } from '../errors/router-error.js';
import { type Logger, loggerFor } from '../logging/logger.js';
import { listedFor } from '../policies/fallback-policy.js';
import { type CustomRoutingStrategy, customStrategy } from '../strategies/custom-strategy.js';
import { STRATEGIES } from '../strategies/index.js';
import { DEFAULT_ROUTING_GROUP, routingGroupProblems } from '../strategies/routing-groups.js';
import type { RoutingStrategy, StrategyArgs } from '../strategies/strategy.js';
import type { DeploymentConfig, DeploymentEntry, ModelGroup } from '../types/index.js';
import { compose, type Handler, type Layer } from './call.js';
import { DeploymentRegistry } from './deployment-registry.js';
import { latencyWindowsOf } from './latency-window.js';
import { attemptLayer } from './layers/attempt.js';
import { cacheLayer } from './layers/cache.js';
import { fallbacksLayer } from './layers/fallbacks.js';
import { hedgeLayer } from './layers/hedge.js';
import { type MirrorRule, mirrorLayer } from './layers/mirror.js';
import { mockFaultsLayer } from './layers/mock-faults.js';
import { preCallChecksLayer } from './layers/pre-call-checks.js';
import { pricedOnlyLayer } from './layers/priced-only.js';
import { recordsLayer } from './layers/records.js';
import { retryLayer } from './layers/retry.js';
import { selectLayer } from './layers/select.js';
import { tagFilterLayer } from './layers/tag-filter.js';
import { tiersLayer } from './layers/tiers.js';
import { traceLayer } from './layers/trace.js';
import type { RouterRuntime } from './runtime.js';

/**
 * What the router derives from its model list and settings: immutable, replaced whole when either
 * changes. A call runs to its end on the config it started with.
 */
export interface RouterConfig {
  readonly settings: ResolvedSettings;
  /** The settings as the user wrote them, merged with later `updateSettings` calls. */
  readonly raw: RouterSettings;
  readonly deployments: readonly DeploymentConfig[];
  readonly registry: DeploymentRegistry;
  readonly modelList: readonly DeploymentEntry[];
  readonly cooldown: CooldownSettings;
  /** Where the router logs under these settings. */
  readonly logger: Logger;
  /** The call path; with the fallbacks layer when fallbacks are configured. */
  readonly handler: Handler;
  /** The call path with the fallbacks layer, for requests that name their own `fallbacks`. */
  readonly handlerWithFallbacks: Handler;
  /** Whether calls of a group, chosen by this strategy, count their requests and tokens per minute. */
  countsUsage(group: ModelGroup, strategy: RoutingStrategy | undefined): boolean;
}

export interface ConfigHooks {
  /** `seconds`: when to try again, when known better than from the cooldowns (per-minute limits). */
  noDeployments(
    config: RouterConfig,
    group: ModelGroup,
    request: Readonly<Record<string, unknown>>,
    seconds?: number,
  ): NoDeploymentsAvailableError;
  /** `resumed`: a move made for a broken stream's continuation (`stream_resume`). */
  onFallback(from: string, to: string, error: RouterError, resumed: boolean): void;
}

function isRoutingStrategy(value: unknown): value is RoutingStrategy {
  return typeof (value as RoutingStrategy | null)?.select === 'function';
}

/** How the groups of a config choose: a strategy per routing group, the default one for the rest. */
interface Routing {
  strategyFor(group: ModelGroup): RoutingStrategy;
  /** `enable_weighted_failover` applies to groups routed with simple-shuffle only (spec 10.4). */
  weightedFailover(group: ModelGroup): boolean;
  /** Every strategy in use, for what they ask of the router. */
  strategies: readonly RoutingStrategy[];
}

/**
 * The strategies of the config: the top-level `routing_strategy` for the implicit group `default`, and
 * one instance per routing group (its own `routing_strategy`, else the top-level one), so that groups
 * never share what they learn. Built-in strategies are kept in the runtime by group, name and args:
 * they survive settings changes, except that the routing groups' are built anew when `rebuildGroups`
 * (an update that sets `routing_groups`). Strategy objects are used as given.
 */
function routingOf(settings: ResolvedSettings, runtime: RouterRuntime, rebuildGroups: boolean): Routing {
  const groups = settings.routing_groups ?? [];
  const problems = routingGroupProblems(groups);
  if (problems.length > 0) throw new ConfigError('router settings', problems);
  const kept = new Set<string>();
  const build = (group: string, setting: unknown, args: StrategyArgs | undefined, fresh: boolean) => {
    if (isRoutingStrategy(setting)) return setting;
    if (typeof setting !== 'string') return customStrategy(setting as CustomRoutingStrategy);
    const factory = STRATEGIES[setting];
    if (!factory) {
      throw new ConfigError('router settings', [
        `routing_strategy: \`${setting}\` is not available in this version yet`,
      ]);
    }
    const key = `${group}:${setting}:${JSON.stringify(args ?? {})}`;
    kept.add(key);
    return runtime.strategy(key, () => factory(runtime.strategyDeps, args ?? {}), fresh);
  };
  const fallback = build(
    DEFAULT_ROUTING_GROUP,
    settings.routing_strategy,
    settings.routing_strategy_args,
    false,
  );
  const byModel = new Map<string, { strategy: RoutingStrategy; setting: unknown }>();
  for (const group of groups) {
    const own = group.routing_strategy !== undefined;
    const setting = own ? group.routing_strategy : settings.routing_strategy;
    // a group that names its strategy gets that strategy's defaults, not the top-level args
    const args = group.routing_strategy_args ?? (own ? undefined : settings.routing_strategy_args);
    const strategy = build(`group ${group.group_name}`, setting, args, rebuildGroups);
    for (const model of group.models) byModel.set(model, { strategy, setting });
  }
  runtime.retainStrategies(kept);
  const failover = settings.enable_weighted_failover;
  const shuffles = (setting: unknown) => failover && setting === 'simple-shuffle';
  const defaultShuffles = shuffles(settings.routing_strategy);
  if (byModel.size === 0) {
    return { strategyFor: () => fallback, weightedFailover: () => defaultShuffles, strategies: [fallback] };
  }
  return {
    strategyFor: (group) => byModel.get(group.name)?.strategy ?? fallback,
    weightedFailover: (group) => {
      const routed = byModel.get(group.name);
      return routed ? shuffles(routed.setting) : defaultShuffles;
    },
    strategies: [fallback, ...[...byModel.values()].map((r) => r.strategy)],
  };
}

/**
 * Whether a group's calls read and count minute usage: its strategy asks for it (`needsUsage`), or
 * pre-call checks are on and a deployment of the group sets `rpm` or `tpm`.
 */
function usageRule(
  settings: ResolvedSettings,
): (group: ModelGroup, strategy: RoutingStrategy | undefined) => boolean {
  const limited = new WeakMap<ModelGroup, boolean>();
  const checks = settings.enable_pre_call_checks;
  return (group, strategy) => {
    if (strategy?.needsUsage) return true;
    if (!checks) return false;
    let has = limited.get(group);
    if (has === undefined) {
      has = hasMinuteLimits(group.endpoints);
      limited.set(group, has);
    }
    return has;
  };
}

/** The `mirrors` entries by mirrored group (names checked by checkMirrorNames). */
function mirrorRules(settings: ResolvedSettings, registry: DeploymentRegistry): Map<string, MirrorRule[]> {
  const rules = new Map<string, MirrorRule[]>();
  for (const { model, to, sample_rate } of settings.mirrors) {
    const rule = { from: model, to: registry.group(to)!, sampleRate: sample_rate };
    rules.set(model, [...(rules.get(model) ?? []), rule]);
  }
  return rules;
}

/**
 * Validates the model list and settings and builds the config: deployments, groups, the strategies
 * (per routing group) and the call path composed for exactly the features in use. Throws ConfigError
 * naming every problem; nothing is half-applied. `rebuildGroups`: the routing groups' strategies start
 * afresh (an update that sets `routing_groups`).
 */
export function buildRouterConfig(
  deployments: readonly DeploymentConfig[],
  raw: RouterSettings,
  runtime: RouterRuntime,
  hooks: ConfigHooks,
  rebuildGroups = false,
): RouterConfig {
  const settings = parseSettings(raw, runtime.env);
  const costMap =
    settings.model_cost_map === undefined ? undefined : readCostMapFile(settings.model_cost_map);
  const built = buildDeployments(
    deployments,
    settings.default_svc_params,
    runtime.env,
    runtime.adapters,
    costMap,
  );
  const hasFallbacks = (group: string) =>
    listedFor(settings.fallbacks, group).length > 0 || settings.default_fallbacks.length > 0;
  const registry = new DeploymentRegistry(built, {
    timeout: settings.timeout,
    streamTimeout: settings.stream_timeout,
    firstTokenTimeout: settings.first_token_timeout,
    streamTotalTimeout: settings.stream_total_timeout,
    cooldownTime: settings.cooldown_time,
    defaultMaxParallelRequests: settings.default_max_parallel_requests,
    passThrough: settings.pass_through_all_models,
    defaultParams: settings.default_svc_params,
    env: runtime.env,
    providers: runtime.adapters,
    hasFallbacks,
    costMap,
  });
  checkFallbackNames(settings, registry.groupNames());
  checkMirrorNames(settings, registry.groupNames());
  const routing = routingOf(settings, runtime, rebuildGroups);
  const config = {} as { -readonly [K in keyof RouterConfig]: RouterConfig[K] };
  const noDeployments = (group: ModelGroup, request: Readonly<Record<string, unknown>>, seconds?: number) =>
    hooks.noDeployments(config, group, request, seconds);
  const { weightedFailover } = routing;
  const countsUsage = usageRule(settings);
  const usageRead = settings.enable_pre_call_checks || routing.strategies.some((s) => s.needsUsage);

  // outside the rest: mirroring (sees every call), then the response cache
  const outerLayers: Layer[] = [];
  if (settings.cache_responses) {
    const kwargs = settings.cache_kwargs ?? {};
    outerLayers.push(
      cacheLayer({
        answers: runtime.answers(kwargs.max_size ?? 1000, kwargs.max_bytes ?? 64 * 1024 * 1024),
        flights: runtime.flights,
        ttl: kwargs.ttl ?? 600,
        namespace: kwargs.namespace ?? 'svc-cache',
        cachingGroups: settings.caching_groups,
        endpointOf: (id) => registry.byId(id),
        outcomes: runtime.outcomes,
        now: runtime.now,
      }),
    );
  }
  const select = selectLayer(
    {
      tracker: runtime.tracker,
      limiter: runtime.limiter,
      now: runtime.now,
      strategyFor: routing.strategyFor,
      noDeployments,
      ...(usageRead && { usage: { counters: runtime.usage, appliesTo: countsUsage } }),
    },
    { limited: registry.limited, weightedFailover },
  );
  const attempt = attemptLayer({ outcomes: runtime.outcomes, now: runtime.now });
  const groupLayers: Layer[] = [mockFaultsLayer];
  if (settings.enable_pre_call_checks) groupLayers.push(preCallChecksLayer);
  if (settings.enable_tag_filtering) groupLayers.push(tagFilterLayer);
  // after the pre-call checks, whose candidates it narrows
  if (registry.anyUnbillable) groupLayers.push(pricedOnlyLayer);
  if (registry.tiered) groupLayers.push(tiersLayer({ noDeployments }));
  const callLayers: Layer[] = [
    retryLayer(
      {
        numRetries: settings.num_retries,
        retryPolicy: settings.retry_policy,
        retryAfterMs: settings.retry_after * 1000,
        maxFallbacks: settings.max_fallbacks,
        weightedFailover,
      },
      runtime,
    ),
    ...(settings.hedge_after === undefined
      ? []
      : [
          hedgeLayer(
            {
              after: settings.hedge_after === 'p95' ? 'p95' : settings.hedge_after * 1000,
              maxHedges: settings.max_hedges,
            },
            {
              now: runtime.now,
              latencies: latencyWindowsOf(runtime),
              onHedge: (group) => runtime.metrics.hedge(group),
            },
          ),
        ]),
    select,
    attempt,
  ];
  const fallbacks = fallbacksLayer({
    settings: { ...settings, maxFallbacks: settings.max_fallbacks },
    group: (name) => registry.group(name),
    onFallback: hooks.onFallback,
  });
  const unreachable: Handler = () => Promise.reject(new Error('the call path has no innermost layer'));
  const logger = loggerFor(settings, runtime.injectedLogger, { secrets: () => runtime.providers.secrets() });
  const unpriced = unpricedWarning(built, runtime.unpricedWarned);
  if (unpriced) logger.warn(unpriced.message, unpriced.fields);
  if (settings.mirrors.length > 0) {
    outerLayers.unshift(
      mirrorLayer(mirrorRules(settings, registry), {
        random: runtime.random,
        now: runtime.now,
        path: compose([select, attempt], unreachable),
        logger: () => logger,
      }),
    );
  }
  // outermost: the call's span covers mirroring, the cache and every attempt
  outerLayers.unshift(traceLayer({ tracer: runtime.tracer, now: runtime.now }));
  // outermost of all: one record per call, whatever happened inside
  if (destinationsOf(settings.callbacks).length > 0)
    outerLayers.unshift(recordsLayer({ records: runtime.records, now: runtime.now }));
  const lean = compose([...outerLayers, ...groupLayers, ...callLayers], unreachable);
  const withFallbacks = compose([...outerLayers, fallbacks, ...groupLayers, ...callLayers], unreachable);
  const configured =
    settings.fallbacks.length > 0 ||
    settings.context_window_fallbacks.length > 0 ||
    settings.content_policy_fallbacks.length > 0 ||
    settings.default_fallbacks.length > 0;

  Object.assign(config, {
    settings,
    raw,
    deployments,
    registry,
    modelList: Object.freeze(built.map((d) => d.entry)),
    cooldown: {
      policy: {
        allowedFails: settings.allowed_fails,
        rateLimitAllowedFails: settings.allowed_fails_policy?.RateLimitErrorAllowedFails,
        contentPolicyAllowedFails: settings.allowed_fails_policy?.ContentPolicyViolationErrorAllowedFails,
      },
      disabled: settings.disable_cooldowns,
    },
    logger,
    handler: configured ? withFallbacks : lean,
    handlerWithFallbacks: withFallbacks,
    countsUsage,
  } satisfies RouterConfig);
  return Object.freeze(config);
}
