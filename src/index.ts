/**
 * `@svc/router`: one OpenAI-style API in front of many model providers, routing each call over a pool
 * of deployments.
 */

export type { CallbackKwargs, LoggedSvcParams, LoggerCallback } from './callbacks/logger-callback.js';
export { loadTokenCounter, promptTokens, textTokens } from './checks/token-count.js';
export type { CallbackSettingInput, DestinationEntryInput } from './config/callback-setting.js';
export type { ResolvedSettings, RouterSettings } from './config/settings-schema.js';
export { type AnswerUsage, type UsageFormat, type UsageReader, usageReader } from './cost/answer-usage.js';
export { catalogCost } from './cost/catalog-cost.js';
export { chunkText, countedUsage } from './cost/counted-usage.js';
export { lookupModelPrice, type ModelPrice } from './cost/lookup.js';
export { ConfigError } from './errors/config-error.js';
export * from './errors/index.js';
export { type LogFields, type Logger, type LogLevel, silentLogger } from './logging/logger.js';
export { createProviderRegistry, type ProviderRegistry } from './providers/registry.js';
export type { WireRequest } from './providers/shared/http-client.js';
export type {
  CallOptions,
  CallWarning,
  ChunkTransform,
  JsonOperation,
  ProviderAdapter,
  ProviderRuntime,
  ProviderTarget,
  ReasoningRequest,
  StreamMonitor,
  StreamOperation,
} from './providers/shared/provider-adapter.js';
export { parseSse, type SseEvent } from './providers/shared/sse.js';
export type { CallRecord } from './records/call-record.js';
export { CallRecords, DEFAULT_CLOSE_DEADLINE_MS, type DestinationSetting } from './records/call-records.js';
export { DeliveryError, type RecordDestination } from './records/destination.js';
export type { DeliveryStats } from './records/record-queue.js';
export type { AccessGroups } from './router/access-groups.js';
export { ChatCompletionStream, type ChatCompletionStreamIterator } from './router/chat-stream.js';
export type { DeploymentHealth } from './router/deployment-health.js';
export type { ModelGroupInfo } from './router/model-group-info.js';
export type { DeploymentMetrics, RouterMetricsSnapshot } from './router/observability/router-metrics.js';
export {
  type AbortedAttempt,
  type CallControl,
  type ChatResult,
  Router,
  type RouterDependencies,
} from './router/router.js';
export type {
  AlertEvent,
  CallbackErrorEvent,
  CooldownEvent,
  FailedAttempt,
  FailureEvent,
  FallbackEvent,
  RouterErrorEvent,
  RouterEvents,
  SuccessEvent,
  WarningEvent,
} from './router/router-events.js';
export { MAX_MODEL_CHARS } from './router/validate-request.js';
export type { CallSignal } from './shared/call-signal.js';
export { withLocalFallback } from './stores/local-fallback-store.js';
export { MemoryStore, type MemoryStoreOptions } from './stores/memory-store.js';
export {
  type RedisNode,
  RedisStore,
  RedisStoreError,
  type RedisStoreErrorCode,
  type RedisStoreOptions,
} from './stores/redis-store.js';
export { isPromise, type MaybePromise, type Store, type StoreWriteOptions } from './stores/store.js';
export { StoreHealth, type StoreHealthEvents, watchedStore } from './stores/store-health.js';
export type { CustomRoutingStrategy, CustomStrategyArgs } from './strategies/custom-strategy.js';
export type {
  CallOutcome,
  RandomSource,
  RoutingStrategy,
  SelectionContext,
  StrategyArgs,
  StrategyDeps,
  StrategyFactory,
} from './strategies/strategy.js';
export * from './types/index.js';
