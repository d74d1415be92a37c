import { buildDeployments } from '../config/build-deployments.js';
import { checkFallbackNames } from '../config/check-fallbacks.js';
import { ConfigError } from '../config/config-error.js';
import { parseSettings } from '../config/parse-settings.js';
import type { ResolvedSettings, RouterSettings } from '../config/settings-schema.js';
import { assertSupportedSettings } from '../config/unsupported-settings.js';
import type { CooldownSettings } from '../cooldown/cooldown-tracker.js';
import type { NoDeploymentsAvailableError } from '../errors/classes.js';
import type { RouterError } from '../errors/router-error.js';
import { type Logger, loggerFor } from '../logging/logger.js';
import { listedFor } from '../policies/fallback-policy.js';
import { type CustomRoutingStrategy, customStrategy } from '../strategies/custom-strategy.js';
import { STRATEGIES } from '../strategies/index.js';
import type { RoutingStrategy } from '../strategies/strategy.js';
import type { DeploymentConfig, DeploymentEntry, ModelGroup } from '../types/index.js';
import { compose, type Handler, type Layer } from './call.js';
import { DeploymentRegistry } from './deployment-registry.js';
import { attemptLayer } from './layers/attempt.js';
import { cacheLayer } from './layers/cache.js';
import { fallbacksLayer } from './layers/fallbacks.js';
import { mockFaultsLayer } from './layers/mock-faults.js';
import { preCallChecksLayer } from './layers/pre-call-checks.js';
import { retryLayer } from './layers/retry.js';
import { selectLayer } from './layers/select.js';
import { tiersLayer } from './layers/tiers.js';
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
}

export interface ConfigHooks {
  noDeployments(
    config: RouterConfig,
    group: ModelGroup,
    request: Readonly<Record<string, unknown>>,
  ): NoDeploymentsAvailableError;
  onFallback(from: string, to: string, error: RouterError): void;
}

function isRoutingStrategy(value: unknown): value is RoutingStrategy {
  return typeof (value as RoutingStrategy | null)?.select === 'function';
}

function strategyOf(settings: ResolvedSettings, runtime: RouterRuntime): RoutingStrategy {
  const setting: unknown = settings.routing_strategy;
  if (isRoutingStrategy(setting)) return setting;
  if (typeof setting !== 'string') return customStrategy(setting as CustomRoutingStrategy);
  const factory = STRATEGIES[setting];
  if (!factory) {
    throw new ConfigError('router settings', [
      `routing_strategy: \`${setting}\` is not available in this version yet`,
    ]);
  }
  const args = settings.routing_strategy_args ?? {};
  return runtime.strategy(`${setting}:${JSON.stringify(args)}`, () => factory(runtime.strategyDeps, args));
}

/**
 * Validates the model list and settings and builds the config: deployments, groups, the strategy and
 * the call path composed for exactly the features in use. Throws ConfigError naming every problem;
 * nothing is half-applied.
 */
export function buildRouterConfig(
  deployments: readonly DeploymentConfig[],
  raw: RouterSettings,
  runtime: RouterRuntime,
  hooks: ConfigHooks,
): RouterConfig {
  const settings = parseSettings(raw, runtime.env);
  assertSupportedSettings(settings);
  const built = buildDeployments(deployments, settings.default_svc_params, runtime.env, runtime.adapters);
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
  });
  checkFallbackNames(settings, registry.groupNames());
  const strategy = strategyOf(settings, runtime);
  const config = {} as { -readonly [K in keyof RouterConfig]: RouterConfig[K] };
  const noDeployments = (group: ModelGroup, request: Readonly<Record<string, unknown>>) =>
    hooks.noDeployments(config, group, request);
  const weightedFailover =
    settings.enable_weighted_failover && settings.routing_strategy === 'simple-shuffle';

  const cacheLayers: Layer[] = [];
  if (settings.cache_responses) {
    const kwargs = settings.cache_kwargs ?? {};
    cacheLayers.push(
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
  const groupLayers: Layer[] = [mockFaultsLayer];
  if (settings.enable_pre_call_checks) groupLayers.push(preCallChecksLayer);
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
    selectLayer(
      {
        tracker: runtime.tracker,
        limiter: runtime.limiter,
        now: runtime.now,
        strategyFor: () => strategy,
        noDeployments,
      },
      { limited: registry.limited, weightedFailover },
    ),
    attemptLayer({ outcomes: runtime.outcomes, now: runtime.now }),
  ];
  const fallbacks = fallbacksLayer({
    settings: { ...settings, maxFallbacks: settings.max_fallbacks },
    group: (name) => registry.group(name),
    onFallback: hooks.onFallback,
  });
  const unreachable: Handler = () => Promise.reject(new Error('the call path has no innermost layer'));
  const lean = compose([...cacheLayers, ...groupLayers, ...callLayers], unreachable);
  const withFallbacks = compose([...cacheLayers, fallbacks, ...groupLayers, ...callLayers], unreachable);
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
    logger: loggerFor(settings, runtime.injectedLogger, { secrets: () => runtime.providers.secrets() }),
    handler: configured ? withFallbacks : lean,
    handlerWithFallbacks: withFallbacks,
  } satisfies RouterConfig);
  return Object.freeze(config);
}
