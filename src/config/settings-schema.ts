import { z } from 'zod';
import { didYouMean } from '../shared/did-you-mean.js';
import { portProblem, redisUrlProblem } from '../stores/redis-options.js';
import { namespaceProblem } from '../stores/store-keys.js';
import { callbackSetting } from './callback-setting.js';
import { httpUrl } from './http-url.js';
import { svcParamsSchema } from './model-list-schema.js';
import { positiveSeconds, seconds } from './time-bounds.js';

const count = z.number().int().nonnegative();
/** `[{ "<model>": ["<fallback>", ...] }]` */
const fallbackList = z.array(z.record(z.string(), z.array(z.string())));

export const BUILT_IN_STRATEGIES = [
  'simple-shuffle',
  'least-busy',
  'latency-based-routing',
  'usage-based-routing',
  'usage-based-routing-v2',
  'cost-based-routing',
] as const;

const hasFunction = (value: unknown, ...names: string[]): boolean =>
  typeof value === 'object' &&
  value !== null &&
  names.some((n) => typeof (value as Record<string, unknown>)[n] === 'function');

const NOT_A_STRATEGY =
  'expected a strategy name, a RoutingStrategy (an object with select()) or an object with asyncGetAvailableDeployment()/getAvailableDeployment()';

/** A `RoutingStrategy` (`select`) or a custom strategy object of the contract (CONTRACT 2.6). */
const strategyObject = z.custom<object>(
  (v) => hasFunction(v, 'select', 'asyncGetAvailableDeployment', 'getAvailableDeployment'),
  { message: NOT_A_STRATEGY },
);

const routingStrategy = z.union([z.enum(BUILT_IN_STRATEGIES), strategyObject], {
  error: (issue) =>
    typeof issue.input === 'string'
      ? `unknown strategy \`${issue.input}\`${didYouMean(issue.input, BUILT_IN_STRATEGIES)}; expected one of ${BUILT_IN_STRATEGIES.join(', ')} or a strategy object`
      : NOT_A_STRATEGY,
});

/** Read by `latency-based-routing` (the other strategies take none). */
const routingStrategyArgs = z.strictObject({
  /** Seconds latencies are averaged over. */
  ttl: positiveSeconds.optional(),
  /** Deployments within this fraction of the fastest average share traffic. */
  lowest_latency_buffer: z.number().nonnegative().optional(),
});

/** A port as a number or, as read from the environment, digits. */
const port = z
  .union([z.number(), z.string().regex(/^\d+$/, 'expected a port number').transform(Number)])
  .check((ctx) => {
    const problem = portProblem(ctx.value);
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
  });

/** Checks text with a function that says what is wrong (never quoting the value, which may be secret). */
const checkedString = (problemOf: (value: string) => string | undefined) =>
  z.string().check((ctx) => {
    const problem = problemOf(ctx.value);
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
  });
/** Router settings (CONTRACT 2.2): the same keys as a config file's `router_settings`. Times are seconds. */
export const routerSettingsSchema = z.strictObject({
  routing_strategy: routingStrategy.default('simple-shuffle'),
  routing_strategy_args: routingStrategyArgs.optional(),
  routing_groups: z
    .array(
      z.strictObject({
        group_name: z.string().min(1),
        models: z.array(z.string().min(1)),
        routing_strategy: routingStrategy.optional(),
        routing_strategy_args: routingStrategyArgs.optional(),
      }),
    )
    .optional(),
  num_retries: count.default(2),
  retry_after: seconds.default(0),
  retry_policy: z
    .strictObject({
      ContentPolicyViolationErrorRetries: count.optional(),
      AuthenticationErrorRetries: count.optional(),
      BadRequestErrorRetries: count.optional(),
      TimeoutErrorRetries: count.optional(),
      RateLimitErrorRetries: count.optional(),
    })
    .optional(),
  allowed_fails: count.default(3),
  allowed_fails_policy: z
    .strictObject({
      ContentPolicyViolationErrorAllowedFails: count.optional(),
      RateLimitErrorAllowedFails: count.optional(),
    })
    .optional(),
  cooldown_time: seconds.default(5),
  disable_cooldowns: z.boolean().default(false),
  fallbacks: fallbackList.default([]),
  context_window_fallbacks: fallbackList.default([]),
  content_policy_fallbacks: fallbackList.default([]),
  default_fallbacks: z.array(z.string()).default([]),
  max_fallbacks: count.default(5),
  enable_weighted_failover: z.boolean().default(false),
  /**
   * Request hedging (off when unset): a call that has not answered after this many seconds, or after
   * `"p95"` of its group's observed latency, is also sent to another healthy deployment; the first
   * answer wins (for streams, the first chunk) and the other is aborted. See docs/routing.md.
   */
  hedge_after: z.union([positiveSeconds, z.literal('p95')]).optional(),
  /** Most hedges per attempt, each `hedge_after` after the one before. @default 1 */
  max_hedges: z.number().int().positive().default(1),
  /**
   * Traffic mirroring (off when empty): a `sample_rate` fraction of the calls to the group `model` is
   * copied, in the background, to the silent group `to`. See docs/routing.md.
   * @example [{ model: 'gpt-4o', to: 'gpt-4o-canary', sample_rate: 0.1 }]
   */
  mirrors: z
    .array(
      z.strictObject({
        model: z.string().min(1),
        to: z.string().min(1),
        /** The fraction of calls copied, 0 to 1. @default 1 */
        sample_rate: z.number().min(0).max(1).default(1),
      }),
    )
    .default([]),
  enable_pre_call_checks: z.boolean().default(false),
  /** The spelling the spec's config example uses; same as `enable_pre_call_checks`. */
  enable_pre_call_check: z.boolean().optional(),
  /**
   * Route by request tags: a request with `metadata.tags` goes only to deployments whose
   * `svc_params.tags` share one; an untagged one to deployments tagged `default`, else to any.
   */
  enable_tag_filtering: z.boolean().default(false),
  default_max_parallel_requests: z.number().int().positive().optional(),
  cache_responses: z.boolean().default(false),
  /** Response cache options; with a shared store (Redis, or one you give the router) answers live there. */
  cache_kwargs: z
    .strictObject({
      /** Seconds an answer is kept. @default 600 */
      ttl: positiveSeconds.optional(),
      /** Prefixes every key of the Redis store built from the redis_* settings. @default 'svc-router' */
      namespace: checkedString(namespaceProblem).optional(),
      /** Most answers kept in memory. @default 1000 */
      max_size: z.number().int().positive().optional(),
      /** Most bytes of answers kept in memory. @default 64 MiB */
      max_bytes: z.number().int().positive().optional(),
    })
    .optional(),
  /** Model groups that share cached answers, e.g. `[['gpt-4o', 'gpt-4o-eu']]`. */
  caching_groups: z.array(z.array(z.string().min(1)).min(2)).optional(),
  /** A Redis store is built from these when no `store` is injected (see docs/stores.md). */
  redis_host: z.string().min(1).optional(),
  redis_port: port.optional(),
  redis_password: z.string().optional(),
  redis_url: checkedString(redisUrlProblem).optional(),
  /** Redis Cluster: the nodes to discover it from. */
  redis_startup_nodes: z
    .array(z.strictObject({ host: z.string().min(1), port }))
    .min(1)
    .optional(),
  /** Alerts on slow and failed calls, to the `alert` event and a chat webhook (CONTRACT 5.5). */
  alerting_config: z
    .strictObject({
      /** A call slower than this (seconds) raises `slow_response`. @default 300 */
      alerting_threshold: seconds.optional(),
      /** Where alert batches are POSTed as `{ "text": ... }`. */
      webhook_url: httpUrl.optional(),
      /** Seconds between deliveries to the webhook. @default 5 */
      flush_interval: positiveSeconds.optional(),
    })
    .optional(),
  /**
   * Logger objects, destination objects, and entries `{ type: "otlp" | "webhook" | "file", ... }` that
   * receive one record per call, batched off the call path (docs/call-records.md).
   */
  callbacks: z.array(callbackSetting).default([]),
  /**
   * A JSON or YAML file of prices and model facts over the catalog's, keyed by model id with or without
   * its provider prefix, in LiteLLM's field names (`input_cost_per_token`, `output_cost_per_token`,
   * `cache_read_input_token_cost`, `cache_creation_input_token_cost`, `max_input_tokens`,
   * `supports_reasoning`, `supports_assistant_prefill`). A relative path is read from the config file's
   * folder, else the working directory. See docs/cost.md.
   */
  model_cost_map: z.string().min(1).optional(),
  async_only_mode: z.boolean().default(false),
  /** Remove request parameters (and reasoning history) a provider cannot take instead of failing. */
  drop_params: z.boolean().default(false),
  pass_through_all_models: z.boolean().default(false),
  /** Merged under every deployment's `svc_params`: checked by the same rules, every key optional. */
  default_svc_params: svcParamsSchema.partial().default({}),
  timeout: positiveSeconds.default(600),
  /** Streaming calls: from the request's start to the first event, then the longest gap between events. */
  stream_timeout: positiveSeconds.optional(),
  /** Streaming calls: from the request's start to the first content chunk; off when unset. */
  first_token_timeout: positiveSeconds.optional(),
  /** Streaming calls: the whole stream, start to end (default: the larger of 1800 s and `timeout`). */
  stream_total_timeout: positiveSeconds.optional(),
  /**
   * A stream that breaks after text reached the caller (cut, stalled past `stream_timeout`, ended
   * without a finish) is continued on a deployment that supports assistant prefill: its group first,
   * then its fallbacks. See docs/resilience.md. @default false
   */
  stream_resume: z.boolean().default(false),
  /** Most continuations of one stream, with `stream_resume`. @default 1 */
  stream_resume_max: count.default(1),
  /** The largest response body read from a provider, in bytes. */
  max_response_bytes: z
    .number()
    .int()
    .positive()
    .default(256 * 1024 * 1024),
  /** Open connections per provider origin (undici pool size); further calls queue for one. */
  max_connections_per_origin: z.number().int().positive().default(256),
  set_verbose: z.boolean().default(false),
  debug_level: z.enum(['DEBUG', 'INFO']).default('INFO'),
});

/** Settings as users write them (every key optional). */
export type RouterSettings = z.input<typeof routerSettingsSchema>;
/** Settings with defaults filled in. */
export type ResolvedSettings = z.output<typeof routerSettingsSchema>;
/** The names users may write, for "did you mean" hints. */
export const SETTING_NAMES: readonly string[] = Object.keys(routerSettingsSchema.shape);
