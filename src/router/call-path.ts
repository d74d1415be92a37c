import { destinationsOf } from '../config/callback-setting.js';
import type { ResolvedSettings } from '../config/settings-schema.js';
import type { Logger } from '../logging/logger.js';
import type { RoutingStrategy } from '../strategies/strategy.js';
import type { ModelGroup } from '../types/index.js';
import { type CallPath, firstStep, type Handler, type Layer } from './call.js';
import type { DeploymentRegistry } from './deployment-registry.js';
import { attemptLayer } from './layers/attempt.js';
import { cacheLayer } from './layers/cache.js';
import { executeLayer } from './layers/execute.js';
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

/** What the layers of one config are built from. */
export interface PathContext {
  readonly settings: ResolvedSettings;
  readonly registry: DeploymentRegistry;
  readonly runtime: RouterRuntime;
  readonly logger: Logger;
  /** The strategy of a group under this config. */
  strategyFor(group: ModelGroup): RoutingStrategy;
  /** Whether a group routes with weighted failover (`enable_weighted_failover` with simple-shuffle). */
  weightedFailover(group: ModelGroup): boolean;
  /** Whether calls of a group, chosen by this strategy, read and count minute usage. */
  countsUsage(group: ModelGroup, strategy: RoutingStrategy | undefined): boolean;
  /** Some group reads minute usage at all (pre-call checks on, or a strategy that needs it). */
  readonly usageRead: boolean;
  /** The `mirrors` entries by mirrored group. */
  readonly mirrors: ReadonlyMap<string, readonly MirrorRule[]>;
}

/** One layer of the call path: when the config puts it in, and how it is built. */
export interface PathLayer {
  readonly name: string;
  /** Whether the config puts it in the chain; a layer that is off is not in the chain at all. */
  on(ctx: PathContext): boolean;
  build(ctx: PathContext): Layer;
}

const always = (): boolean => true;

const noDeployments =
  (ctx: PathContext) => (group: ModelGroup, request: Readonly<Record<string, unknown>>, seconds?: number) =>
    ctx.runtime.noDeployments(group, request, ctx.settings.enable_pre_call_checks, seconds);

const select: PathLayer = {
  name: 'select',
  on: always,
  build: (ctx) =>
    selectLayer(
      {
        tracker: ctx.runtime.tracker,
        limiter: ctx.runtime.limiter,
        now: ctx.runtime.now,
        strategyFor: ctx.strategyFor,
        noDeployments: noDeployments(ctx),
        ...(ctx.usageRead && { usage: { counters: ctx.runtime.usage, appliesTo: ctx.countsUsage } }),
      },
      { limited: ctx.registry.limited, weightedFailover: ctx.weightedFailover },
    ),
};

const attempt: PathLayer = {
  name: 'attempt',
  on: always,
  build: (ctx) => attemptLayer({ outcomes: ctx.runtime.outcomes, now: ctx.runtime.now }),
};

/** The innermost step: the attempt itself, on the endpoint select chose. */
function execute(ctx: PathContext): Handler {
  const { runtime } = ctx;
  return executeLayer({
    now: runtime.now,
    maxResponseBytes: ctx.settings.max_response_bytes,
    providers: runtime.providers,
    deadlines: runtime.deadlines,
    onWarning: runtime.warn,
  });
}

/**
 * The call path, outermost first; `execute` is innermost, below the last of these. Each layer is one
 * file in layers/ with its own unit test; docs/architecture.md shows this table.
 */
export const CALL_PATH: readonly PathLayer[] = [
  {
    // outermost of all: the call's span covers the record, mirroring, the cache and every attempt, and
    // hands its trace down (the record names its trace id)
    name: 'trace',
    on: always,
    build: (ctx) => traceLayer({ tracer: ctx.runtime.tracer, now: ctx.runtime.now }),
  },
  {
    // one record per call, whatever happened inside
    name: 'records',
    on: (ctx) => destinationsOf(ctx.settings.callbacks).length > 0,
    build: (ctx) => recordsLayer({ records: ctx.runtime.records, now: ctx.runtime.now }),
  },
  {
    name: 'mirror',
    on: (ctx) => ctx.mirrors.size > 0,
    build: (ctx) =>
      mirrorLayer(ctx.mirrors, {
        random: ctx.runtime.random,
        now: ctx.runtime.now,
        // a mirrored copy is selected and attempted, nothing else: never retried, never falls back
        path: composeLayers([select, attempt], ctx),
        logger: () => ctx.logger,
      }),
  },
  {
    name: 'cache',
    on: (ctx) => ctx.settings.cache_responses,
    build: (ctx) => {
      const kwargs = ctx.settings.cache_kwargs ?? {};
      const { runtime, registry } = ctx;
      return cacheLayer({
        answers: runtime.answers(kwargs.max_size ?? 1000, kwargs.max_bytes ?? 64 * 1024 * 1024),
        flights: runtime.flights,
        ttl: kwargs.ttl ?? 600,
        namespace: kwargs.namespace ?? 'svc-cache',
        cachingGroups: ctx.settings.caching_groups,
        endpointOf: (id) => registry.byId(id),
        outcomes: runtime.outcomes,
        now: runtime.now,
      });
    },
  },
  {
    // always in: a request may name its own `fallbacks`; a call with none to try passes straight through
    name: 'fallbacks',
    on: always,
    build: (ctx) =>
      fallbacksLayer({
        settings: { ...ctx.settings, maxFallbacks: ctx.settings.max_fallbacks },
        group: (name) => ctx.registry.group(name),
        onFallback: (from, to, error, resumed) => ctx.runtime.fellBack(from, to, error, resumed),
      }),
  },
  { name: 'mock-faults', on: always, build: () => mockFaultsLayer },
  {
    name: 'pre-call-checks',
    on: (ctx) => ctx.settings.enable_pre_call_checks,
    build: () => preCallChecksLayer,
  },
  { name: 'tag-filter', on: (ctx) => ctx.settings.enable_tag_filtering, build: () => tagFilterLayer },
  // after the pre-call checks, whose candidates it narrows
  { name: 'priced-only', on: (ctx) => ctx.registry.anyUnbillable, build: () => pricedOnlyLayer },
  {
    name: 'tiers',
    on: (ctx) => ctx.registry.tiered,
    build: (ctx) => tiersLayer({ noDeployments: noDeployments(ctx) }),
  },
  {
    name: 'retry',
    on: always,
    build: (ctx) =>
      retryLayer(
        {
          numRetries: ctx.settings.num_retries,
          retryPolicy: ctx.settings.retry_policy,
          retryAfterMs: ctx.settings.retry_after * 1000,
          maxFallbacks: ctx.settings.max_fallbacks,
          weightedFailover: ctx.weightedFailover,
        },
        ctx.runtime,
      ),
  },
  {
    name: 'hedge',
    on: (ctx) => ctx.settings.hedge_after !== undefined,
    build: (ctx) => {
      const after = ctx.settings.hedge_after!;
      const { runtime } = ctx;
      return hedgeLayer(
        { after: after === 'p95' ? 'p95' : after * 1000, maxHedges: ctx.settings.max_hedges },
        { now: runtime.now, latencies: runtime.latencies, onHedge: (group) => runtime.metrics.hedge(group) },
      );
    },
  },
  select,
  attempt,
];

/** `layers` (outermost first) around `execute`: `[a, b]` is `a(b(execute))`. */
function composeLayers(layers: readonly PathLayer[], ctx: PathContext): Handler {
  let handler = execute(ctx);
  for (let i = layers.length - 1; i >= 0; i--) handler = layers[i]!.build(ctx)(handler);
  return handler;
}

/** The names of the layers this config puts in the chain, outermost first (`execute` last). */
export function layersOn(ctx: PathContext): string[] {
  return [...CALL_PATH.filter((l) => l.on(ctx)).map((l) => l.name), 'execute'];
}

/** The call path of a config: the layers it turns on around `execute`, composed once. */
export function composeCallPath(ctx: PathContext): CallPath {
  const handler = composeLayers(
    CALL_PATH.filter((l) => l.on(ctx)),
    ctx,
  );
  return (call) => handler(call, firstStep(call));
}
