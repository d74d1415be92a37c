import { EventEmitter } from 'eventemitter3';
import { preCallChecks } from '../checks/pre-call-checks.js';
import { requestedRegion } from '../checks/region.js';
import { didYouMean } from '../config/did-you-mean.js';
import type { ResolvedSettings, RouterSettings } from '../config/settings-schema.js';
import { CooldownTracker } from '../cooldown/cooldown-tracker.js';
import { responseCost } from '../cost/response-cost.js';
import { BadRequestError } from '../errors/classes.js';
import { HttpClient } from '../providers/shared/http-client.js';
import type { CallOptions } from '../providers/shared/provider-adapter.js';
import { MemoryStore } from '../stores/memory-store.js';
import type { Store } from '../stores/store.js';
import type { CustomRoutingStrategy } from '../strategies/custom-strategy.js';
import type { RandomSource } from '../strategies/strategy.js';
import type {
  ChatCompletion,
  ChatCompletionRequest,
  DeploymentConfig,
  DeploymentEntry,
  EmbeddingRequest,
  EmbeddingResponse,
  HiddenParams,
  ImageGenerationRequest,
  ImageGenerationResponse,
  RouterRequestFields,
  TextCompletion,
  TextCompletionRequest,
  Usage,
  WithHiddenParams,
} from '../types/index.js';
import { CallChain } from './call-chain.js';
import type { CallContext, Routed } from './call-context.js';
import { CallObserver } from './call-observer.js';
import { ChatCompletionStream } from './chat-stream.js';
import type { ModelGroup } from './deployment-registry.js';
import type { Endpoint } from './endpoint.js';
import { Executor } from './executor.js';
import { GroupRunner } from './group-runner.js';
import { withHiddenParams } from './hidden-params.js';
import { type ModelGroupInfo, modelGroupInfo } from './model-group-info.js';
import { noDeploymentsError } from './no-deployments.js';
import { providerBody } from './request-fields.js';
import type { RouterEvents } from './router-events.js';
import { buildRouterState, type RouterState } from './router-state.js';
import { type RequestKind, validateRequest } from './validate-request.js';

/** What the router takes from its environment; tests pass a seeded `random` and a fake `now`. */
export interface RouterDependencies {
  /** Uniform random numbers in [0, 1) for weighted selection and backoff jitter. @default Math.random */
  random?: RandomSource;
  /** Where `os.environ/NAME` references and provider key variables are read. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Milliseconds clock. @default Date.now */
  now?: () => number;
  /** Where shared state (cooldowns) lives. @default a new MemoryStore */
  store?: Store;
}

/** Per-call controls that are not part of the request body. */
export interface CallControl {
  /** Aborts the call; the abort reason is thrown as is and counts against no deployment. */
  signal?: AbortSignal;
}

type RoutableRequest = { model: string; [key: string]: unknown } & RouterRequestFields;
type Attempt<B, T> = (
  endpoint: Endpoint,
  body: B,
  options: CallOptions,
  mock: string | undefined,
) => Promise<T>;

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
  /** The deployments as given, each with `model_info.id` set: what custom strategies return. */
  readonly modelList: readonly DeploymentEntry[];
  readonly #deps: Required<RouterDependencies>;
  readonly #http = new HttpClient();
  readonly #executor = new Executor(this.#http);
  readonly #observer = new CallObserver(this, []);
  readonly #tracker: CooldownTracker;
  readonly #chain: CallChain;
  readonly #deploymentsInput: readonly DeploymentConfig[];
  #rawSettings: RouterSettings;
  #state!: RouterState;
  #closed = false;

  constructor(
    modelList: readonly DeploymentConfig[],
    settings: RouterSettings = {},
    deps: RouterDependencies = {},
  ) {
    super();
    this.#deps = {
      random: deps.random ?? Math.random,
      env: deps.env ?? process.env,
      now: deps.now ?? Date.now,
      store: deps.store ?? new MemoryStore(),
    };
    this.#deploymentsInput = modelList;
    this.#rawSettings = settings;
    this.#tracker = new CooldownTracker({
      store: this.#deps.store,
      onCooldown: (event) => this.#emitSafely('cooldown', event),
    });
    this.#chain = new CallChain({
      runner: new GroupRunner({
        strategy: () => this.#state.strategy,
        config: () => this.#state.runner,
        limiter: () => this.#state.limiter,
        tracker: this.#tracker,
        observer: this.#observer,
        now: this.#deps.now,
        random: this.#deps.random,
        noDeployments: (group, request) => this.#noDeployments(group, request),
      }),
      registry: () => this.#state.registry,
      fallbacks: () => ({ ...this.#state.settings, maxFallbacks: this.#state.settings.max_fallbacks }),
      admits: (group, request) =>
        this.#state.settings.enable_pre_call_checks ? preCallChecks(group, request) : undefined,
      emitter: this,
    });
    this.#apply(settings);
    this.modelList = this.#state.modelList;
  }

  #apply(raw: RouterSettings): void {
    const state = buildRouterState(this.#deploymentsInput, raw, this.#deps);
    this.#tracker.configure(state.cooldown);
    this.#observer.setCallbacks(state.settings.callbacks as never);
    this.#state = state;
  }

  /** The settings in force, defaults filled in. */
  get settings(): Readonly<ResolvedSettings> {
    return this.#state.settings;
  }

  /**
   * Changes settings at runtime (validated like the constructor's; a bad value throws and changes
   * nothing). Keys not given keep their values. Cooldowns in force are kept.
   */
  updateSettings(partial: RouterSettings): void {
    const merged = { ...this.#rawSettings, ...partial };
    this.#apply(merged);
    this.#rawSettings = merged;
  }

  /** Replaces the routing strategy with a user's strategy object (CONTRACT 2.6). */
  setCustomRoutingStrategy(strategy: CustomRoutingStrategy): void {
    this.updateSettings({ routing_strategy: strategy });
  }

  /** A chat completion, or with `stream: true` an async iterable of chunks. */
  acompletion(
    request: ChatCompletionRequest & { stream: true },
    control?: CallControl,
  ): Promise<ChatCompletionStream>;
  acompletion(
    request: ChatCompletionRequest & { stream?: false | undefined },
    control?: CallControl,
  ): Promise<WithHiddenParams<ChatCompletion>>;
  acompletion(
    request: ChatCompletionRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<ChatCompletion> | ChatCompletionStream>;
  acompletion(request: ChatCompletionRequest, control?: CallControl) {
    return this.#chat(request, control, true);
  }

  /** Same as `acompletion` (every call is async here) except that weighted failover does not apply. */
  completion(
    request: ChatCompletionRequest & { stream: true },
    control?: CallControl,
  ): Promise<ChatCompletionStream>;
  completion(
    request: ChatCompletionRequest & { stream?: false | undefined },
    control?: CallControl,
  ): Promise<WithHiddenParams<ChatCompletion>>;
  completion(
    request: ChatCompletionRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<ChatCompletion> | ChatCompletionStream>;
  completion(request: ChatCompletionRequest, control?: CallControl) {
    return this.#chat(request, control, false);
  }

  /** Embeddings for `input`. */
  aembedding(request: EmbeddingRequest, control?: CallControl): Promise<WithHiddenParams<EmbeddingResponse>> {
    return this.#json('embedding', request, control, true, (e, b, o) => this.#executor.embedding(e, b, o));
  }

  /** Same as `aembedding`, without weighted failover. */
  embedding(request: EmbeddingRequest, control?: CallControl): Promise<WithHiddenParams<EmbeddingResponse>> {
    return this.#json('embedding', request, control, false, (e, b, o) => this.#executor.embedding(e, b, o));
  }

  /** A legacy `/v1/completions` text completion. */
  atextCompletion(
    request: TextCompletionRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<TextCompletion>> {
    return this.#json('textCompletion', request, control, true, (e, b, o, m) =>
      this.#executor.textCompletion(e, b, o, m),
    );
  }

  /** Same as `atextCompletion`, without weighted failover. */
  textCompletion(
    request: TextCompletionRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<TextCompletion>> {
    return this.#json('textCompletion', request, control, false, (e, b, o, m) =>
      this.#executor.textCompletion(e, b, o, m),
    );
  }

  /** Images for `prompt`. */
  aimageGeneration(
    request: ImageGenerationRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<ImageGenerationResponse>> {
    return this.#json('imageGeneration', request, control, true, (e, b, o) =>
      this.#executor.imageGeneration(e, b, o),
    );
  }

  /** Same as `aimageGeneration`, without weighted failover. */
  imageGeneration(
    request: ImageGenerationRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<ImageGenerationResponse>> {
    return this.#json('imageGeneration', request, control, false, (e, b, o) =>
      this.#executor.imageGeneration(e, b, o),
    );
  }

  /** One entry per model group: providers, mode, reasoning support, context window and prices. */
  getModelGroupInfo(): ModelGroupInfo[] {
    return [...this.#state.registry.groups()].map(modelGroupInfo);
  }

  /** Releases every connection pool and timer. Calls made after it fail. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#http.close();
    await this.#deps.store.close?.();
  }

  async #chat(
    request: ChatCompletionRequest,
    control: CallControl | undefined,
    asyncEntry: boolean,
  ): Promise<WithHiddenParams<ChatCompletion> | ChatCompletionStream> {
    validateRequest('chat', request);
    if (request.stream) {
      const routed = await this.#route(request, control, { stream: true, asyncEntry }, (e, b, o, m) =>
        this.#executor.chatStream(e, b, o, m),
      );
      return this.#streamResult(routed, request);
    }
    const routed = await this.#route(request, control, { stream: false, asyncEntry }, (e, b, o, m) =>
      this.#executor.chat(e, b, o, m),
    );
    return this.#result(routed, request, routed.result.usage);
  }

  async #json<B extends RoutableRequest, T extends object>(
    kind: RequestKind,
    request: B,
    control: CallControl | undefined,
    asyncEntry: boolean,
    attempt: Attempt<B, T>,
  ): Promise<WithHiddenParams<T>> {
    validateRequest(kind, request);
    const routed = await this.#route(request, control, { stream: false, asyncEntry }, attempt);
    return this.#result(routed, request, (routed.result as { usage?: Partial<Usage> }).usage);
  }

  #route<B extends RoutableRequest, T>(
    request: B,
    control: CallControl | undefined,
    options: { stream: boolean; asyncEntry: boolean },
    attempt: Attempt<B, T>,
  ): Promise<Routed<T>> {
    if (this.#closed) return Promise.reject(new Error('Router is closed'));
    const group = this.#groupOf(request.model);
    const body = providerBody(request);
    const timeoutMs = request.timeout === undefined ? undefined : request.timeout * 1000;
    const dropParams = request.drop_params ?? this.#state.settings.drop_params;
    const signal = control?.signal;
    const ctx: CallContext<T> = {
      model: request.model,
      request,
      stream: options.stream,
      signal,
      asyncEntry: options.asyncEntry,
      numRetries: request.num_retries,
      timeoutMs,
      attempts: 0,
      failures: [],
      excluded: undefined,
      attempt: (endpoint) =>
        attempt(
          endpoint,
          body,
          {
            timeoutMs: timeoutMs ?? endpoint.timeoutMs,
            streamTimeoutMs: timeoutMs ?? endpoint.streamTimeoutMs,
            signal,
            dropParams,
          },
          request.mock_response ?? endpoint.deployment.params.mock_response,
        ),
    };
    return this.#chain.run(group, ctx);
  }

  #groupOf(model: string): ModelGroup {
    const group = this.#state.registry.group(model);
    if (group) return group;
    const names = this.#state.registry.groupNames();
    const listed = names.length > 0 ? ` Model groups: ${names.slice(0, 20).join(', ')}.` : '';
    throw new BadRequestError(
      `Unknown model \`${model}\`${didYouMean(model, names)}.${listed}` +
        (this.#state.settings.pass_through_all_models ? '' : ' (pass_through_all_models is off)'),
      { model },
    );
  }

  #noDeployments(group: ModelGroup, request: Readonly<Record<string, unknown>>) {
    const ids = group.endpoints.map((e) => e.deployment.id);
    return noDeploymentsError(
      group.name,
      this.#tracker.secondsUntilAvailable(ids, this.#deps.now()),
      this.#state.settings.enable_pre_call_checks,
      requestedRegion(request),
    );
  }

  #hiddenParams<T>(routed: Routed<T>, cost: number): HiddenParams {
    const { endpoint } = routed;
    return {
      model_id: endpoint.deployment.id,
      model_group: endpoint.deployment.modelName,
      api_base: endpoint.target.apiBase ?? null,
      custom_llm_provider: endpoint.deployment.provider,
      response_cost: cost,
      cache_hit: false,
      attempts: routed.attempts,
    };
  }

  #result<T extends object>(
    routed: Routed<T>,
    request: Readonly<Record<string, unknown>>,
    usage: Partial<Usage> | undefined,
  ): WithHiddenParams<T> {
    const cost = responseCost(routed.endpoint.deployment, usage);
    const result = withHiddenParams(routed.result, this.#hiddenParams(routed, cost));
    this.#observer.succeeded(
      { request, endpoint: routed.endpoint, stream: false, startMs: routed.startMs, endMs: this.#deps.now() },
      result,
      cost,
      routed.attempts,
    );
    return result;
  }

  #streamResult(
    routed: Routed<Awaited<ReturnType<Executor['chatStream']>>>,
    request: ChatCompletionRequest,
  ): ChatCompletionStream {
    const { endpoint, startMs } = routed;
    const record = { request, endpoint, stream: true, startMs, endMs: 0 };
    const stream: ChatCompletionStream = new ChatCompletionStream(routed.result, {
      onEnd: (usage) => {
        const cost = responseCost(endpoint.deployment, usage);
        stream._hidden_params.response_cost = cost;
        record.endMs = this.#deps.now();
        this.#observer.succeeded(record, null, cost, routed.attempts);
      },
      onError: (error) => {
        record.endMs = this.#deps.now();
        routed.settle(error);
        this.#observer.failed(record, error);
      },
      onClose: () => routed.settle(),
    });
    return withHiddenParams(stream, this.#hiddenParams(routed, 0)) as ChatCompletionStream;
  }

  #emitSafely(name: 'cooldown', event: Parameters<RouterEvents['cooldown']>[0]): void {
    if (this.listenerCount(name) === 0) return;
    try {
      this.emit(name, event);
    } catch {
      // a listener's failure never changes a call
    }
  }
}
