import { EventEmitter } from 'eventemitter3';
import { buildDeployments } from '../config/build-deployments.js';
import { didYouMean } from '../config/did-you-mean.js';
import { parseSettings } from '../config/parse-settings.js';
import type { ResolvedSettings, RouterSettings } from '../config/settings-schema.js';
import { assertSupportedSettings } from '../config/unsupported-settings.js';
import { responseCost } from '../cost/response-cost.js';
import { BadRequestError } from '../errors/classes.js';
import { HttpClient } from '../providers/shared/http-client.js';
import type { CallOptions } from '../providers/shared/provider-adapter.js';
import { type CustomRoutingStrategy, customStrategy } from '../strategies/custom-strategy.js';
import { simpleShuffle } from '../strategies/simple-shuffle.js';
import type { RandomSource, RoutingStrategy } from '../strategies/strategy.js';
import type {
  ChatCompletion,
  ChatCompletionRequest,
  DeploymentConfig,
  DeploymentEntry,
  EmbeddingRequest,
  EmbeddingResponse,
  ImageGenerationRequest,
  ImageGenerationResponse,
  RouterRequestFields,
  TextCompletion,
  TextCompletionRequest,
  Usage,
  WithHiddenParams,
} from '../types/index.js';
import { CallObserver } from './call-observer.js';
import { ChatCompletionStream } from './chat-stream.js';
import { DeploymentRegistry, type ModelGroup } from './deployment-registry.js';
import type { Endpoint } from './endpoint.js';
import { Executor } from './executor.js';
import { withHiddenParams } from './hidden-params.js';
import { type ModelGroupInfo, modelGroupInfo } from './model-group-info.js';
import { providerBody } from './request-fields.js';
import { CallRouter, type Routed } from './route-call.js';
import type { RouterEvents } from './router-events.js';
import { type RequestKind, validateRequest } from './validate-request.js';

/** What the router takes from its environment; tests pass a seeded `random` and a fake `now`. */
export interface RouterDependencies {
  /** Uniform random numbers in [0, 1) for weighted selection. @default Math.random */
  random?: RandomSource;
  /** Where `os.environ/NAME` references and provider key variables are read. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Milliseconds clock. @default Date.now */
  now?: () => number;
}

/** Per-call controls that are not part of the request body. */
export interface CallControl {
  /** Aborts the call; the abort reason is thrown as is and counts against no deployment. */
  signal?: AbortSignal;
}

type Attempt<B, T> = (
  endpoint: Endpoint,
  body: B,
  options: CallOptions,
  mock: string | undefined,
) => Promise<T>;

/**
 * One OpenAI-style API over a pool of deployments. Deployments sharing a `model_name` form a group;
 * each call picks a deployment of the group with the routing strategy and moves on to the next
 * `order` tier when one fails.
 *
 * Every method is async (`completion` and `acompletion` alike return Promises); `async_only_mode` is
 * accepted and changes nothing.
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
  readonly #observer: CallObserver;
  readonly #callRouter: CallRouter;
  readonly #deploymentsInput: readonly DeploymentConfig[];
  #rawSettings: RouterSettings;
  #settings!: ResolvedSettings;
  #registry!: DeploymentRegistry;
  #strategy!: RoutingStrategy;
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
    };
    this.#deploymentsInput = modelList;
    this.#rawSettings = settings;
    this.#observer = new CallObserver(this, []);
    this.#callRouter = new CallRouter(() => this.#strategy, this.#observer, this.#deps.now);
    this.modelList = this.#apply(settings);
  }

  #apply(raw: RouterSettings): readonly DeploymentEntry[] {
    const settings = parseSettings(raw, this.#deps.env);
    assertSupportedSettings(settings);
    const deployments = buildDeployments(this.#deploymentsInput, settings.default_svc_params, this.#deps.env);
    this.#registry = new DeploymentRegistry(deployments, {
      timeout: settings.timeout,
      streamTimeout: settings.stream_timeout,
      passThrough: settings.pass_through_all_models,
      defaultParams: settings.default_svc_params,
      env: this.#deps.env,
    });
    const strategy = settings.routing_strategy;
    this.#strategy =
      typeof strategy === 'string'
        ? simpleShuffle(this.#deps.random)
        : customStrategy(strategy as CustomRoutingStrategy);
    this.#observer.setCallbacks(settings.callbacks as never);
    this.#settings = settings;
    return Object.freeze(deployments.map((d) => d.entry));
  }

  /** The settings in force, defaults filled in. */
  get settings(): Readonly<ResolvedSettings> {
    return this.#settings;
  }

  /**
   * Changes settings at runtime (validated like the constructor's; a bad value throws and changes
   * nothing). Keys not given keep their values.
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
  async acompletion(
    request: ChatCompletionRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<ChatCompletion> | ChatCompletionStream> {
    validateRequest('chat', request);
    if (request.stream) return this.#stream(request, control);
    const routed = await this.#route('chat', request, control, false, (e, b: ChatCompletionRequest, o, m) =>
      this.#executor.chat(e, b, o, m),
    );
    return this.#finish(routed, request, routed.result.usage);
  }

  /** Same as `acompletion` (every call is async here); weighted failover does not apply to it. */
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
    return this.acompletion(request, control);
  }

  /** Embeddings for `input`. */
  async aembedding(
    request: EmbeddingRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<EmbeddingResponse>> {
    validateRequest('embedding', request);
    const routed = await this.#route('embedding', request, control, false, (e, b: EmbeddingRequest, o) =>
      this.#executor.embedding(e, b, o),
    );
    return this.#finish(routed, request, routed.result.usage);
  }

  /** Same as `aembedding`. */
  embedding(request: EmbeddingRequest, control?: CallControl): Promise<WithHiddenParams<EmbeddingResponse>> {
    return this.aembedding(request, control);
  }

  /** A legacy `/v1/completions` text completion. */
  async atextCompletion(
    request: TextCompletionRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<TextCompletion>> {
    validateRequest('textCompletion', request);
    const routed = await this.#route(
      'textCompletion',
      request,
      control,
      false,
      (e, b: TextCompletionRequest, o, m) => this.#executor.textCompletion(e, b, o, m),
    );
    return this.#finish(routed, request, routed.result.usage);
  }

  /** Same as `atextCompletion`. */
  textCompletion(
    request: TextCompletionRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<TextCompletion>> {
    return this.atextCompletion(request, control);
  }

  /** Images for `prompt`. */
  async aimageGeneration(
    request: ImageGenerationRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<ImageGenerationResponse>> {
    validateRequest('imageGeneration', request);
    const routed = await this.#route(
      'imageGeneration',
      request,
      control,
      false,
      (e, b: ImageGenerationRequest, o) => this.#executor.imageGeneration(e, b, o),
    );
    return this.#finish(routed, request, undefined);
  }

  /** Same as `aimageGeneration`. */
  imageGeneration(
    request: ImageGenerationRequest,
    control?: CallControl,
  ): Promise<WithHiddenParams<ImageGenerationResponse>> {
    return this.aimageGeneration(request, control);
  }

  /** One entry per model group: providers, mode, reasoning support, context window and prices. */
  getModelGroupInfo(): ModelGroupInfo[] {
    return [...this.#registry.groups()].map(modelGroupInfo);
  }

  /** Releases every connection pool and timer. Calls made after it fail. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#http.close();
  }

  async #stream(
    request: ChatCompletionRequest,
    control: CallControl | undefined,
  ): Promise<ChatCompletionStream> {
    const routed = await this.#route('chat', request, control, true, (e, b: ChatCompletionRequest, o, m) =>
      this.#executor.chatStream(e, b, o, m),
    );
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
        this.#observer.failed(record, error);
      },
    });
    return withHiddenParams(stream, this.#hiddenParams(routed, 0)) as ChatCompletionStream;
  }

  #route<B extends { model: string; [key: string]: unknown } & RouterRequestFields, T>(
    kind: RequestKind,
    request: B,
    control: CallControl | undefined,
    stream: boolean,
    attempt: Attempt<B, T>,
  ): Promise<Routed<T>> {
    if (this.#closed) return Promise.reject(new Error('Router is closed'));
    const group = this.#groupOf(request.model, kind);
    const body = providerBody(request);
    const requestTimeoutMs = request.timeout === undefined ? undefined : request.timeout * 1000;
    const requestMock = request.mock_response;
    const signal = control?.signal;
    return this.#callRouter.route({
      group,
      request,
      stream,
      signal,
      attempt: (endpoint) =>
        attempt(
          endpoint,
          body,
          {
            timeoutMs: requestTimeoutMs ?? endpoint.timeoutMs,
            streamTimeoutMs: requestTimeoutMs ?? endpoint.streamTimeoutMs,
            signal,
            dropParams: request.drop_params ?? this.#settings.drop_params,
          },
          requestMock ?? endpoint.deployment.params.mock_response,
        ),
    });
  }

  #groupOf(model: string, kind: RequestKind): ModelGroup {
    const group = this.#registry.group(model);
    if (group) return group;
    const names = this.#registry.groupNames();
    const listed = names.length > 0 ? ` Model groups: ${names.slice(0, 20).join(', ')}.` : '';
    throw new BadRequestError(
      `Unknown model \`${model}\` for ${kind}${didYouMean(model, names)}.${listed}` +
        (this.#settings.pass_through_all_models ? '' : ' (pass_through_all_models is off)'),
      { model },
    );
  }

  #hiddenParams<T>(routed: Routed<T>, cost: number) {
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

  #finish<T extends object>(
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
}
