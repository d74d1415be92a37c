import { hasMinuteLimits } from '../checks/minute-limits.js';
import { buildDeployments } from '../config/build-deployments.js';
import { checkFallbackNames } from '../config/check-fallbacks.js';
import { checkMirrorNames } from '../config/check-mirrors.js';
import { parseSettings } from '../config/parse-settings.js';
import { DEFAULT_ROUTING_GROUP, routingGroupProblems } from '../config/routing-groups.js';
import type { ResolvedSettings, RouterSettings } from '../config/settings-schema.js';
import type { CooldownSettings } from '../cooldown/cooldown-tracker.js';
import { readCostMapFile } from '../cost/cost-map-file.js';
import { unpricedWarning } from '../cost/unpriced-warning.js';
import { ConfigError } from '../errors/config-error.js';
import { type Logger, loggerFor } from '../logging/logger.js';
import { listedFor } from '../policies/fallback-policy.js';
import { type CustomRoutingStrategy, customStrategy } from '../strategies/custom-strategy.js';
import { STRATEGIES } from '../strategies/index.js';
import type { RoutingStrategy, StrategyArgs } from '../strategies/strategy.js';
import type { DeploymentConfig, DeploymentEntry, ModelGroup } from '../types/index.js';
import type { CallPath } from './call.js';
import { composeCallPath } from './call-path.js';
import { DeploymentRegistry } from './deployment-registry.js';
import type { MirrorRule } from './layers/mirror.js';
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
  /** The call path (call-path.ts): the layers these settings turn on, around `execute`. */
  readonly handler: CallPath;
  /** Whether calls of a group, chosen by this strategy, count their requests and tokens per minute. */
  countsUsage(group: ModelGroup, strategy: RoutingStrategy | undefined): boolean;
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
 * (per routing group) and the call path composed once, for exactly the features in use. Throws ConfigError
 * naming every problem; nothing is half-applied. `rebuildGroups`: the routing groups' strategies start
 * afresh (an update that sets `routing_groups`).
 */
export function buildRouterConfig(
  deployments: readonly DeploymentConfig[],
  raw: RouterSettings,
  runtime: RouterRuntime,
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
  const countsUsage = usageRule(settings);
  const logger = loggerFor(settings, runtime.injectedLogger, { secrets: () => runtime.providers.secrets() });
  const unpriced = unpricedWarning(built, runtime.unpricedWarned);
  if (unpriced) logger.warn(unpriced.message, unpriced.fields);
  const handler = composeCallPath({
    settings,
    registry,
    runtime,
    logger,
    strategyFor: routing.strategyFor,
    weightedFailover: routing.weightedFailover,
    countsUsage,
    usageRead: settings.enable_pre_call_checks || routing.strategies.some((s) => s.needsUsage),
    mirrors: mirrorRules(settings, registry),
  });

  return Object.freeze({
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
    handler,
    countsUsage,
  } satisfies RouterConfig);
}
