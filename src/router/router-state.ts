import { ConcurrencyLimiter } from '../checks/concurrency-limiter.js';
import { parallelLimitOf } from '../checks/parallel-limit.js';
import { buildDeployments } from '../config/build-deployments.js';
import { checkFallbackNames } from '../config/check-fallbacks.js';
import { parseSettings } from '../config/parse-settings.js';
import type { ResolvedSettings, RouterSettings } from '../config/settings-schema.js';
import { assertSupportedSettings } from '../config/unsupported-settings.js';
import type { CooldownPolicy } from '../cooldown/cooldown-rules.js';
import { type CustomRoutingStrategy, customStrategy } from '../strategies/custom-strategy.js';
import { simpleShuffle } from '../strategies/simple-shuffle.js';
import type { RandomSource, RoutingStrategy } from '../strategies/strategy.js';
import type { DeploymentConfig, DeploymentEntry } from '../types/index.js';
import { DeploymentRegistry } from './deployment-registry.js';
import type { RunnerConfig } from './group-runner.js';

/** Everything the router derives from its model list and settings; rebuilt whole on `updateSettings`. */
export interface RouterState {
  settings: ResolvedSettings;
  registry: DeploymentRegistry;
  strategy: RoutingStrategy;
  limiter: ConcurrencyLimiter;
  runner: RunnerConfig;
  cooldown: { policy: CooldownPolicy; disabled: boolean };
  modelList: readonly DeploymentEntry[];
}

/**
 * Validates the model list and settings and derives the router's state from them. Throws ConfigError
 * naming every problem; nothing is half-applied.
 */
export function buildRouterState(
  modelList: readonly DeploymentConfig[],
  raw: RouterSettings,
  deps: { env: NodeJS.ProcessEnv; random: RandomSource },
): RouterState {
  const settings = parseSettings(raw, deps.env);
  assertSupportedSettings(settings);
  const deployments = buildDeployments(modelList, settings.default_svc_params, deps.env);
  const registry = new DeploymentRegistry(deployments, {
    timeout: settings.timeout,
    streamTimeout: settings.stream_timeout,
    passThrough: settings.pass_through_all_models,
    defaultParams: settings.default_svc_params,
    env: deps.env,
  });
  checkFallbackNames(settings, registry.groupNames());
  const strategySetting = settings.routing_strategy;
  const limits = new Map<string, number>();
  for (const d of deployments) {
    const limit = parallelLimitOf(d, settings.default_max_parallel_requests);
    if (limit !== undefined) limits.set(d.id, limit);
  }
  return {
    settings,
    registry,
    strategy:
      typeof strategySetting === 'string'
        ? simpleShuffle(deps.random)
        : customStrategy(strategySetting as CustomRoutingStrategy),
    limiter: new ConcurrencyLimiter(limits),
    runner: {
      numRetries: settings.num_retries,
      retryPolicy: settings.retry_policy,
      retryAfterMs: settings.retry_after * 1000,
      cooldownMs: settings.cooldown_time * 1000,
      maxFallbacks: settings.max_fallbacks,
      weightedFailover: settings.enable_weighted_failover && strategySetting === 'simple-shuffle',
    },
    cooldown: {
      policy: {
        allowedFails: settings.allowed_fails,
        rateLimitAllowedFails: settings.allowed_fails_policy?.RateLimitErrorAllowedFails,
        contentPolicyAllowedFails: settings.allowed_fails_policy?.ContentPolicyViolationErrorAllowedFails,
      },
      disabled: settings.disable_cooldowns,
    },
    modelList: Object.freeze(deployments.map((d) => d.entry)),
  };
}
