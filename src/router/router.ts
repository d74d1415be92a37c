import { inspect } from 'node:util';
import { EventEmitter } from 'eventemitter3';
import { destinationsOf, loggersOf } from '../config/callback-setting.js';
import { loadConfigFile } from '../config/config-file.js';
import { parseSettings } from '../config/parse-settings.js';
import type { ResolvedSettings, RouterSettings } from '../config/settings-schema.js';
import { ConfigError } from '../errors/config-error.js';
import { redisOptionsFromSettings, type StoreSettings, sameStoreSettings } from '../stores/store-settings.js';
import type { CustomRoutingStrategy } from '../strategies/custom-strategy.js';
import type { RoutingStrategy } from '../strategies/strategy.js';
import type {
  ChatCompletionRequest,
  DeploymentConfig,
  DeploymentEntry,
  EmbeddingRequest,
  EmbeddingResponse,
  ImageGenerationRequest,
  ImageGenerationResponse,
  ModerationRequest,
  ModerationResponse,
  RerankRequest,
  RerankResponse,
  SpeechRequest,
  SpeechResponse,
  TextCompletion,
  TextCompletionRequest,
  TranscriptionRequest,
  TranscriptionResponse,
  WithHiddenParams,
} from '../types/index.js';
import { type AccessGroups, accessGroupsOf } from './access-groups.js';
import type { CallControl, ChatResult } from './call-control.js';
import { CallRunner } from './call-runner.js';
import { type DeploymentHealth, deploymentHealth } from './deployment-health.js';
import { type ModelGroupInfo, modelGroupInfo } from './model-group-info.js';
import type { RouterMetricsSnapshot } from './observability/router-metrics.js';
import { buildRouterConfig, type RouterConfig } from './router-config.js';
import type { RouterEvents } from './router-events.js';
import { type RouterDependencies, RouterRuntime } from './runtime.js';

export type { AbortedAttempt, CallControl, ChatResult } from './call-control.js';
export type { RouterDependencies };

/**
 * One OpenAI-style API over a pool of deployments. Deployments sharing a `model_name` form a group;
 * each call picks a deployment of the group with the routing strategy, retries on another when one
 * fails (never on a cooling one), moves on to the next `order` tier, then to the configured fallbacks.
 *
 * Every method is async (`completion` and `acompletion` alike return Promises); `async_only_mode` is
 * accepted and changes nothing. Weighted failover applies to the `a*` methods only.
 *
 * @example
 * const router = new Router([
 *   { model_name: 'gpt-4o', svc_params: { model: 'openai/gpt-4o', api_key: 'os.environ/OPENAI_API_KEY' } },
 * ]);
 * const res = await router.acompletion({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
 * console.log(res.choices[0].message.content, res._hidden_params.model_id);
 *
 * @throws ConfigError at construction when the model list or settings are invalid.
 */
export class Router extends EventEmitter<RouterEvents> {
  readonly #runtime: RouterRuntime;
  readonly #ownsStore: boolean;
  /** The settings the store was built from. */
  readonly #storeSettings: StoreSettings;
  #config: RouterConfig;
  /** `getAccessGroups()` of the current config, built on first use. */
  #accessGroups: { registry: RouterConfig['registry']; groups: AccessGroups } | undefined;
  #closed = false;
  readonly #calls: CallRunner;

  constructor(
    modelList: readonly DeploymentConfig[],
    settings: RouterSettings = {},
    deps: RouterDependencies = {},
  ) {
    super();
    // the runtime is sized by settings it reads once (pool size); a bad value fails here, like any other
    const initial = parseSettings(settings, deps.env ?? process.env);
    // checked even when a store is injected (which wins): contradictory redis_* settings are a mistake
    const redis = redisOptionsFromSettings(initial);
    this.#runtime = new RouterRuntime(
      deps,
      { connections: initial.max_connections_per_origin, redis: deps.store ? undefined : redis },
      this,
    );
    this.#storeSettings = initial;
    this.#ownsStore = deps.store === undefined;
    try {
      this.#config = this.#build(modelList, settings);
    } catch (error) {
      // a bad model list must not leave the store's connection (and so the process) open
      void this.#runtime.close(this.#ownsStore).catch(() => {});
      throw error;
    }
    this.#runtime.listen(() => this.#config);
    this.#calls = new CallRunner(
      this.#runtime,
      () => this.#config,
      () => this.#closed,
    );
  }

  /**
   * A Router from a config file (YAML or JSON) or the object it would hold: its `model_list`,
   * `router_settings`, `svc_settings` and `environment_variables` (which `os.environ/` references read,
   * without changing `process.env`). `general_settings` belong to the proxy and are not read here.
   *
   * @example
   * const router = Router.fromConfig('./config.yaml');
   * @throws ConfigError naming the file and every problem with its path, all at once.
   */
  static fromConfig(source: string | object, deps: RouterDependencies = {}): Router {
    const loaded = loadConfigFile(source, {
      env: deps.env ?? process.env,
      ...(deps.providers && { providers: deps.providers }),
    });
    return new Router(loaded.modelList, loaded.routerSettings, { ...deps, env: loaded.env });
  }

  #build(deployments: readonly DeploymentConfig[], raw: RouterSettings, rebuildGroups = false): RouterConfig {
    const config = buildRouterConfig(deployments, raw, this.#runtime, rebuildGroups);
    if (!sameStoreSettings(config.settings, this.#storeSettings))
      throw new ConfigError('router settings', [
        'redis_*, cache_kwargs.namespace: the store is built once, with the router; create a new Router to change it',
      ]);
    const { callbacks } = config.settings;
    this.#runtime.observer.setCallbacks(loggersOf(callbacks));
    this.#runtime.records.configure(destinationsOf(callbacks));
    return config;
  }

  /** The deployments in force, each with `model_info.id` set: what custom strategies return. */
  get modelList(): readonly DeploymentEntry[] {
    return this.#config.modelList;
  }

  /** The settings in force, defaults filled in. */
  get settings(): Readonly<ResolvedSettings> {
    return this.#config.settings;
  }

  /**
   * Changes settings at runtime (validated like the constructor's; a bad value throws and changes
   * nothing). Keys not given keep their values. Calls in flight finish on the settings they started
   * with; cooldowns, in-flight counts and what strategies learned carry over, except that setting
   * `routing_groups` starts every routing group's strategy afresh (spec 10.3).
   */
  updateSettings(partial: RouterSettings): void {
    const raw = { ...this.#config.raw, ...partial };
    this.#config = this.#build(this.#config.deployments, raw, partial.routing_groups !== undefined);
  }

  /** Replaces the routing strategy with a `RoutingStrategy` or a custom strategy object (CONTRACT 2.6). */
  setCustomRoutingStrategy(strategy: CustomRoutingStrategy | RoutingStrategy): void {
    this.updateSettings({ routing_strategy: strategy as never });
  }

  /**
   * Adds a deployment at runtime (validated like the constructor's model list) and returns its entry
   * with `model_info.id` set. A deployment whose `model_id` is already listed is a ConfigError.
   */
  addDeployment(deployment: DeploymentConfig): DeploymentEntry {
    this.#config = this.#build([...this.#config.deployments, deployment], this.#config.raw);
    return this.#config.modelList[this.#config.modelList.length - 1]!;
  }

  /**
   * Removes the deployment with this `model_id`; returns false when there is none. Calls already on it
   * finish there. Fallbacks that name a group left empty fail like any unknown group (ConfigError).
   */
  deleteDeployment(modelId: string): boolean {
    const index = this.#config.modelList.findIndex((e) => e.model_info.id === modelId);
    if (index === -1) return false;
    const remaining = this.#config.deployments.filter((_, i) => i !== index);
    this.#config = this.#build(remaining, this.#config.raw);
    return true;
  }

  /** Every deployment's live state: ok, cooling (until when) or half-open; calls in flight; this minute's error rate. */
  getDeployments(): DeploymentHealth[] {
    const { tracker, limiter, now } = this.#runtime;
    return this.#config.modelList.map((entry) =>
      deploymentHealth(entry, this.#config.registry.byId(entry.model_info.id), tracker, limiter, now()),
    );
  }

  /**
   * The router's counts since it started, per deployment (attempts by status class, errors by class,
   * retries, cache hits, cooldowns, tokens, spend, latency sums, calls in flight), fallbacks per pair of
   * groups, hedges per group and shared-store errors. Cheap: plain counters copied out; labels are
   * model groups and deployment ids only, never a key or a user. Feed your own exporter from it.
   *
   * @example
   * for (const d of router.metrics().deployments) console.log(d.model_id, d.requests['5xx'] ?? 0);
   */
  metrics(): RouterMetricsSnapshot {
    const { registry } = this.#config;
    const configured = this.#config.modelList.flatMap((e) => {
      const endpoint = registry.byId(e.model_info.id);
      return endpoint ? [endpoint.deployment] : [];
    });
    return {
      ...this.#runtime.metrics.snapshot(configured, (id) => this.#runtime.limiter.inFlight(id)),
      call_records: this.#runtime.records.stats(),
    };
  }

  /** A chat completion, or with `stream: true` an async iterable of chunks. */
  acompletion<R extends ChatCompletionRequest>(request: R, control?: CallControl): Promise<ChatResult<R>> {
    return this.#calls.chat(request, control, true) as Promise<ChatResult<R>>;
  }

  /** Same as `acompletion` (every call is async here) except that weighted failover does not apply. */
  completion<R extends ChatCompletionRequest>(request: R, control?: CallControl): Promise<ChatResult<R>> {
    return this.#calls.chat(request, control, false) as Promise<ChatResult<R>>;
  }

  /** Embeddings for `input`. */
  aembedding(request: EmbeddingRequest, control?: CallControl): Promise<WithHiddenParams<EmbeddingResponse>> {
    return this.#calls.json('embedding', request, control, true, this.#runtime.runs.embedding);
  }

  /** Same as `aembedding`, without weighted failover. */
  embedding(request: EmbeddingRequest, control?: CallControl): Promise<WithHiddenParams<EmbeddingResponse>> {
    return this.#calls.json('embedding', request, control, false, this.#runtime.runs.embedding);
  }

  /** A legacy `/v1/completions` text completion. */
  atextCompletion(
    request: TextCompletionRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<TextCompletion>> {
    return this.#calls.json('textCompletion', request, control, true, this.#runtime.runs.textCompletion);
  }

  /** Same as `atextCompletion`, without weighted failover. */
  textCompletion(
    request: TextCompletionRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<TextCompletion>> {
    return this.#calls.json('textCompletion', request, control, false, this.#runtime.runs.textCompletion);
  }

  /** Images for `prompt`. */
  aimageGeneration(
    request: ImageGenerationRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<ImageGenerationResponse>> {
    return this.#calls.json('imageGeneration', request, control, true, this.#runtime.runs.imageGeneration);
  }

  /** Same as `aimageGeneration`, without weighted failover. */
  imageGeneration(
    request: ImageGenerationRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<ImageGenerationResponse>> {
    return this.#calls.json('imageGeneration', request, control, false, this.#runtime.runs.imageGeneration);
  }

  /**
   * Speech to text (OpenAI's `/audio/transcriptions`) on the group's deployments whose
   * `model_info.mode` is `audio_transcription`. A `file` given as bytes can be retried elsewhere; one
   * given as a stream is sent as it is read, never held whole, and so gets no further attempt once its
   * first attempt has started sending it. Priced per second of audio (or by tokens) where the catalog
   * or the deployment has a price. Never cached.
   *
   * @throws BadRequestError when the group has no deployment of that mode.
   */
  atranscription(
    request: TranscriptionRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<TranscriptionResponse>> {
    return this.#calls.media('transcription', request, control, this.#runtime.runs.transcription);
  }

  /**
   * Text to speech (`/audio/speech`) on deployments of mode `audio_speech`: resolves once the audio's
   * headers arrive, its `body` still streaming. Priced per character of `input`. Never cached.
   */
  aspeech(request: SpeechRequest, control?: CallControl): Promise<WithHiddenParams<SpeechResponse>> {
    return this.#calls.media('speech', request, control, this.#runtime.runs.speech);
  }

  /** Moderations (`/moderations`) on deployments of mode `moderation`. */
  amoderation(
    request: ModerationRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<ModerationResponse>> {
    return this.#calls.media('moderation', request, control, this.#runtime.runs.moderation);
  }

  /**
   * Cohere-style rerank (`{ query, documents, top_n }` -> `{ results: [{ index, relevance_score }] }`,
   * `/rerank`) on deployments of mode `rerank`. Priced per search where there is a price.
   */
  arerank(request: RerankRequest, control?: CallControl): Promise<WithHiddenParams<RerankResponse>> {
    return this.#calls.media('rerank', request, control, this.#runtime.runs.rerank);
  }

  /** One entry per model group: providers, mode, reasoning support, context window and prices. */
  getModelGroupInfo(): ModelGroupInfo[] {
    return [...this.#config.registry.groups()].map(modelGroupInfo);
  }

  /**
   * Sends one line of text to the alerting webhook (`alerting_config.webhook_url`) the way the router's
   * own alerts go: batched every `flush_interval` seconds off the call path, never throwing, the
   * deployments' secrets removed; no `alert` event is emitted. For alerts of what the router cannot see
   * itself, such as a server's budget alerts. Nothing is sent without a webhook.
   *
   * @example router.sendAlert('[budget_alert] key `my-app` crossed its soft_budget $8');
   */
  sendAlert(line: string): void {
    this.#runtime.alertLine(line);
  }

  /**
   * The access groups of the model list (`model_info.access_groups`): each name with the model groups
   * that have a deployment in it. Built once per model list and settings (the same object until either
   * changes), so a server can resolve a caller's `models` that name an access group without work per call.
   *
   * @example
   * // model_info: { access_groups: ['fast-models'] } on the deployments of gpt-4o-mini and haiku
   * router.getAccessGroups().get('fast-models'); // Set { 'gpt-4o-mini', 'haiku' }
   */
  getAccessGroups(): AccessGroups {
    const { registry } = this.#config;
    if (this.#accessGroups?.registry !== registry)
      this.#accessGroups = { registry, groups: accessGroupsOf(registry.groups()) };
    return this.#accessGroups.groups;
  }

  /**
   * The wildcard `model_name` (`openai/*`, `*`) that serves `model`, or undefined when a listed group
   * has that name or no pattern matches: for a server deciding model access by the pattern too.
   * @example router.wildcardFor('openai/gpt-4o'); // 'openai/*'
   */
  wildcardFor(model: string): string | undefined {
    return this.#config.registry.wildcardFor(model);
  }

  /** Releases every connection pool, cache and timer (and the store, when the router made it). Calls made after it fail. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#runtime.close(this.#ownsStore);
  }

  /** A summary without credentials: `util.inspect(router)` never shows a key. */
  [inspect.custom](): string {
    const groups = [...this.#config.registry.groups()].map((g) => `${g.name} (${g.endpoints.length})`);
    const strategy = this.#config.settings.routing_strategy;
    return `Router { groups: [${groups.join(', ')}], routing_strategy: ${typeof strategy === 'string' ? strategy : 'custom'} }`;
  }
}
