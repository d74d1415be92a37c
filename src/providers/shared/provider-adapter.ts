import type { ProviderErrorCodes } from '../../errors/codes.js';
import type { UpstreamFailure } from '../../errors/map-error.js';
import type { CallSignal } from '../../shared/call-signal.js';
import type { DeadlineQueue } from '../../shared/deadline-queue.js';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionRequest,
  EmbeddingRequest,
  EmbeddingResponse,
  ImageGenerationRequest,
  ImageGenerationResponse,
  ModerationRequest,
  ModerationResponse,
  ProviderName,
  ReasoningEffort,
  RerankRequest,
  RerankResponse,
  SpeechRequest,
  SvcParams,
  TextCompletion,
  TextCompletionRequest,
  ThinkingParam,
  TranscriptionRequest,
  TranscriptionResponse,
} from '../../types/index.js';
import type { MockFormat } from '../../types/mock-format.js';
import type { WireRequest } from './http-client.js';
import type { SseEvent } from './sse.js';

/** Where and as whom an adapter calls: derived once per deployment. */
export interface ProviderTarget {
  readonly provider: ProviderName;
  /** The model name the provider knows (after the prefix). */
  readonly model: string;
  /** The deployment's `model_id`, for error context. */
  readonly modelId: string;
  readonly apiBase: string | undefined;
  readonly apiKey: string | undefined;
  readonly apiVersion: string | undefined;
  /** Every `svc_params` value, for provider-specific settings (`aws_region_name`, `vertex_project`, ...). */
  readonly params: Readonly<SvcParams>;
  /** The environment the router reads (`os.environ/` references, provider key variables). */
  readonly env: NodeJS.ProcessEnv;
  /** Every credential of the deployment (keys, tokens, secrets): removed from any error message. */
  readonly secrets: readonly string[];
}

/** Something a call skipped without failing (a malformed stream event), reported to the router. */
export interface CallWarning {
  /** Stable code, e.g. `malformed_event`. */
  code: string;
  /** What was skipped and why; never holds a secret. */
  message: string;
}

/**
 * What a stream parser tells the call while it reads. `invokeStream` passes one to every
 * `StreamOperation.parse`; a parser called directly may be given none.
 */
export interface StreamMonitor {
  /** A complete event was read: the wait for the next one (`stream_timeout`) starts again. */
  event(): void;
  /** Something was skipped without failing the stream (a `malformed_event`). */
  warn(warning: CallWarning): void;
}

/**
 * Per-router state that adapters keep across calls (auth token caches), created with the router's
 * runtime and released by `close()`. Nothing of this kind lives at module level.
 */
export interface ProviderRuntime {
  /** The value kept under `key` for this router, created by `create` on first use. */
  shared<T>(key: string, create: () => T): T;
  /** Registers a credential the adapter fetched (an access token): kept out of every error, event and log. */
  addSecret(secret: string): void;
}

/** Per-call options the router passes down. Times are milliseconds. */
export interface CallOptions {
  /** A non-streaming call: the whole call. */
  timeoutMs: number;
  /** A streaming call: from the request's start to its first event, then the longest gap between two complete events. */
  streamTimeoutMs: number;
  /** A streaming call: from the request's start to the first content chunk; undefined when off. */
  firstTokenTimeoutMs?: number | undefined;
  /** A streaming call: the whole stream, start to end; undefined: no overall bound. */
  streamTotalTimeoutMs?: number | undefined;
  /** The largest response body read; undefined: no bound. */
  maxResponseBytes?: number | undefined;
  signal?: CallSignal | undefined;
  /** Drop parameters the provider cannot take instead of failing (`drop_params`). */
  dropParams?: boolean;
  /** This router's provider state (auth caches, fetched secrets); adapters called directly get a fresh one. */
  runtime?: ProviderRuntime | undefined;
  /**
   * A streaming call: told when its response body closes before its end (cut, or destroyed by a
   * deadline), so a stream nobody reads still frees what it holds.
   */
  onBodyClose?: (() => void) | undefined;
  /**
   * A streaming call: told when it is closed because its caller held a chunk for `stream_timeout`
   * without asking for the next (the caller's pause, not the upstream's fault).
   */
  onUnread?: (() => void) | undefined;
  /** Told of what a call skipped without failing (a malformed stream event). */
  onWarning?: ((warning: CallWarning) => void) | undefined;
  /**
   * Where a plain call's `timeoutMs` deadline is set: the router's queue, one timer per duration for
   * all its calls. Absent: the call arms a timer of its own.
   */
  deadlines?: DeadlineQueue | undefined;
}

/** A request/response operation: build the wire request, parse the JSON answer. Both pure. */
export interface JsonOperation<Req, Res> {
  build(request: Req, target: ProviderTarget, options: CallOptions): WireRequest | Promise<WireRequest>;
  parse(json: unknown, target: ProviderTarget, request: Req): Res;
  /** True when this request's answer is plain text (a transcription as `text` or `srt`): `parse` gets the text. */
  readsText?(request: Req): boolean;
}

/** An operation whose answer is bytes streamed to the caller as they come (speech): only the request is built. */
export interface BinaryOperation<Req> {
  build(request: Req, target: ProviderTarget, options: CallOptions): WireRequest | Promise<WireRequest>;
}

/**
 * A stream's events into chunks, synchronously, one event at a time: what lets `invokeStream` read a
 * server-sent-event body with no async turn per chunk (see `StreamReader`).
 */
export interface ChunkTransform<Chunk> {
  /**
   * Appends the chunks of one event to `out` (none, one or several). Throws a router error when the
   * event reports an error.
   */
  event(event: SseEvent, out: Chunk[]): void;
  /** The body ended cleanly: throws a router error when the stream is not complete (before its finish). */
  end(out: Chunk[]): void;
}

/** A streaming operation: build the wire request, turn the body bytes into chunks. */
export interface StreamOperation<Req, Chunk> {
  build(request: Req, target: ProviderTarget, options: CallOptions): WireRequest | Promise<WireRequest>;
  /**
   * Yields chunks from the raw body. Must throw a router error when the stream reports an error or ends
   * before it is complete (before its finish): a cut stream is never a silent success. Tells `monitor`
   * of every complete event and of every event it skips.
   */
  parse(
    body: AsyncIterable<Uint8Array>,
    target: ProviderTarget,
    request: Req,
    monitor?: StreamMonitor,
  ): AsyncIterable<Chunk>;
  /**
   * For a server-sent-event body: the same chunks as `parse`, one event at a time with no async turn.
   * When given, `invokeStream` reads the body with it (and never calls `parse`); `parse` stays for
   * callers that hold the body as an async iterable.
   */
  transform?(target: ProviderTarget, request: Req, monitor: StreamMonitor): ChunkTransform<Chunk>;
}

/** The request fields that decide reasoning. `model` (prefixed or not) matters to Gemini, Vertex, Bedrock and xAI. */
export interface ReasoningRequest {
  model?: string;
  reasoning_effort?: ReasoningEffort;
  thinking?: ThinkingParam;
  max_tokens?: number;
  max_completion_tokens?: number;
}

/**
 * One provider's wire format, and everything else the router needs to know about the provider: the
 * model prefixes that name it, its reasoning fields, what its error codes mean. Adapters are pure
 * translation (no routing, no I/O of their own): the shared `invoke` functions do the HTTP and error
 * handling around them. Implement this interface to add a provider (docs/providers/custom-provider.md)
 * and give it to the router (`RouterDependencies.providers`) or to `createProviderRegistry`.
 */
export interface ProviderAdapter {
  /**
   * The provider's name, as `_hidden_params.custom_llm_provider`, events and errors report it. An adapter
   * named like a built-in provider replaces it.
   */
  readonly name: ProviderName;
  /**
   * The model prefixes that name this provider: `<prefix>/<model>` in `svc_params.model` (Gemini:
   * `['google', 'gemini']`). Optional: `[name]`, or for an adapter that replaces a built-in one, the
   * built-in's prefixes. A prefix has no `/`; two providers may not claim the same one.
   */
  readonly prefixes?: readonly string[];
  /**
   * The provider-native body fields for a request's `reasoning_effort` / `thinking` (CONTRACT 5.4), as
   * `toProviderReasoningParams` reports them; `model` is the provider's model name (no prefix). Pure.
   * Optional: without it the provider reports no reasoning translation. It describes what `chat.build`
   * sends; it is not called by the router on its way to `build`.
   */
  reasoningParams?(request: ReasoningRequest, model: string): Record<string, unknown>;
  /**
   * What this provider's own error codes mean (`{ RESOURCE_EXHAUSTED: 'rate_limit' }`): the codes its
   * `readError` returns and its stream error events carry, each with the stable router code (and so the
   * error class) it stands for. Read before the OpenAI format's codes, which every adapter gets.
   * Optional.
   */
  readonly errorCodes?: ProviderErrorCodes;
  /**
   * The wire format `startMockProvider({ providers: [adapter] })` serves for this provider, for tests
   * with no network. Optional; the built-in providers' formats are always served, so built-in adapters
   * leave it out (and keep the mock server out of the router's own code).
   */
  readonly mockFormat?: MockFormat;
  /**
   * Used when a deployment sets no `api_base` / `api_key`. `apiKeyOptional`: a deployment on the
   * default endpoint may have no key (local servers), so none is required at construction.
   */
  readonly defaults?: {
    apiBase?: string | undefined;
    apiKeyEnv?: string | readonly string[] | undefined;
    apiKeyOptional?: boolean | undefined;
  };
  readonly chat: JsonOperation<ChatCompletionRequest, ChatCompletion>;
  readonly chatStream: StreamOperation<ChatCompletionRequest, ChatCompletionChunk>;
  readonly embedding?: JsonOperation<EmbeddingRequest, EmbeddingResponse>;
  /**
   * The most inputs one embedding call of this deployment takes (Titan: 1). A longer `input` is split
   * into several calls by the router and the answers merged. Optional: no limit.
   */
  embeddingBatchSize?(target: ProviderTarget): number | undefined;
  readonly textCompletion?: JsonOperation<TextCompletionRequest, TextCompletion>;
  readonly imageGeneration?: JsonOperation<ImageGenerationRequest, ImageGenerationResponse>;
  /** Speech to text, the audio sent as a multipart upload (streamed when the request's file is a stream). */
  readonly transcription?: JsonOperation<TranscriptionRequest, TranscriptionResponse>;
  /** Text to speech, answered as a binary stream. */
  readonly speech?: BinaryOperation<SpeechRequest>;
  readonly moderation?: JsonOperation<ModerationRequest, ModerationResponse>;
  /** Cohere-style rerank (`{ query, documents, top_n }` -> `{ results: [{ index, relevance_score }] }`). */
  readonly rerank?: JsonOperation<RerankRequest, RerankResponse>;
  /**
   * Problems with a deployment that can be known before any call (a missing `api_base`, project or
   * region), reported at Router construction. Optional.
   */
  validate?(target: ProviderTarget): string[];
  /**
   * Credentials the adapter reads from outside `svc_params` (e.g. AWS keys from the environment), to
   * keep out of every error message. Optional; `svc_params` credentials are found without it.
   */
  secrets?(target: ProviderTarget): string[];
  /**
   * Reads the provider's error body into its message and code; the shared mapping picks the class (with
   * `errorCodes`) and keeps the body itself, redacted and bounded, as the error's `upstreamBody`.
   */
  readError(
    status: number,
    bodyText: string,
    headers: Record<string, string | string[] | undefined>,
  ): UpstreamFailure;
}
