import { BadRequestError } from '../errors/classes.js';
import type { HttpClient } from '../providers/shared/http-client.js';
import { invokeJson } from '../providers/shared/invoke.js';
import { invokeBinary } from '../providers/shared/invoke-binary.js';
import { invokeStream } from '../providers/shared/invoke-stream.js';
import type { CallOptions, JsonOperation, ProviderAdapter } from '../providers/shared/provider-adapter.js';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionRequest,
  EmbeddingRequest,
  EmbeddingResponse,
  Endpoint,
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
} from '../types/index.js';
import { mockChatChunks, mockChatCompletion, mockTextCompletion } from './mock-response.js';
import type { Run } from './start-call.js';

/**
 * A provider stream's chunks; the stream reader's also hand over a chunk already at hand without a
 * promise (`nextReady`: undefined when none is, and it throws what `next()` would reject with).
 */
type ReadyIterator = AsyncIterator<ChatCompletionChunk> & {
  nextReady?(): IteratorResult<ChatCompletionChunk> | undefined;
};

/** A stream whose first chunk has already arrived: failures before it are the router's to handle. */
export interface OpenedStream {
  first: IteratorResult<ChatCompletionChunk>;
  rest: AsyncIterator<ChatCompletionChunk>;
  /**
   * Runs `listener` when the upstream body closes before its end, and when the stream is closed because
   * its caller stopped reading for `stream_timeout` (`unread`); at once if that happened already. Never
   * for a mock stream.
   */
  onClose(listener: (unread: boolean) => void): void;
}

type JsonKind =
  | 'embedding'
  | 'textCompletion'
  | 'imageGeneration'
  | 'transcription'
  | 'moderation'
  | 'rerank';

const OPERATION_NAMES: Record<JsonKind | 'speech', string> = {
  embedding: 'embeddings',
  textCompletion: 'text completions',
  imageGeneration: 'image generation',
  transcription: 'audio transcription',
  speech: 'speech',
  moderation: 'moderations',
  rerank: 'rerank',
};

function notOffered(endpoint: Endpoint, kind: JsonKind | 'speech'): BadRequestError {
  const { adapter, target } = endpoint;
  return new BadRequestError(
    `${adapter.name} does not offer ${OPERATION_NAMES[kind]} (model ${target.model})`,
    {
      provider: adapter.name,
      model: target.model,
      modelId: target.modelId,
    },
  );
}

function mergeEmbeddings(answers: EmbeddingResponse[]): EmbeddingResponse {
  const data = answers.flatMap((a) => a.data).map((item, index) => ({ ...item, index }));
  const usage = { prompt_tokens: 0, total_tokens: 0 };
  for (const a of answers) {
    usage.prompt_tokens += a.usage?.prompt_tokens ?? 0;
    usage.total_tokens += a.usage?.total_tokens ?? 0;
  }
  return { ...answers[0]!, data, usage };
}

/**
 * Runs one attempt on one endpoint: answers a `mock_response` locally, otherwise calls the provider
 * through its adapter. Knows nothing of routing.
 */
export class Executor {
  constructor(private readonly http: HttpClient) {}

  chat(
    endpoint: Endpoint,
    body: ChatCompletionRequest,
    options: CallOptions,
    mock?: string,
  ): Promise<ChatCompletion> {
    if (mock !== undefined) return Promise.resolve(mockChatCompletion(mock, endpoint.target.model));
    const { adapter, target } = endpoint;
    return invokeJson(this.http, adapter, adapter.chat, body, target, options);
  }

  async chatStream(
    endpoint: Endpoint,
    body: ChatCompletionRequest,
    options: CallOptions,
    mock?: string,
  ): Promise<OpenedStream> {
    const { adapter, target } = endpoint;
    let closed: { unread: boolean } | undefined;
    let onClose: ((unread: boolean) => void) | undefined;
    const tell = (unread: boolean) => {
      closed = { unread: unread || closed?.unread === true };
      onClose?.(unread);
    };
    const chunks =
      mock !== undefined
        ? mockChatChunks(mock, target.model)
        : await invokeStream(this.http, adapter, adapter.chatStream, body, target, {
            ...options,
            onBodyClose: () => tell(false),
            onUnread: () => tell(true),
          });
    const rest: ReadyIterator = chunks[Symbol.asyncIterator]();
    return {
      // taken without a promise when its bytes came with the headers (the stream reader's nextReady)
      first: rest.nextReady?.() ?? (await rest.next()),
      rest,
      onClose: (listener) => {
        if (closed) listener(closed.unread);
        else onClose = listener;
      },
    };
  }

  /**
   * Embeddings; an `input` longer than the deployment's `embeddingBatchSize` is split into several
   * calls (at most 8 at a time) whose answers are merged in order, indices renumbered, usage summed.
   */
  async embedding(
    endpoint: Endpoint,
    body: EmbeddingRequest,
    options: CallOptions,
  ): Promise<EmbeddingResponse> {
    const size = endpoint.adapter.embeddingBatchSize?.(endpoint.target);
    const input = body.input;
    if (!size || !Array.isArray(input) || input.length <= size)
      return this.#json(endpoint, 'embedding', body, options);
    const batches: EmbeddingRequest[] = [];
    for (let i = 0; i < input.length; i += size)
      batches.push({ ...body, input: input.slice(i, i + size) as never });
    const answers: EmbeddingResponse[] = new Array(batches.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < batches.length; i = next++)
        answers[i] = await this.#json(endpoint, 'embedding', batches[i]!, options);
    };
    await Promise.all(Array.from({ length: Math.min(8, batches.length) }, worker));
    return mergeEmbeddings(answers);
  }

  textCompletion(
    endpoint: Endpoint,
    body: TextCompletionRequest,
    options: CallOptions,
    mock?: string,
  ): Promise<TextCompletion> {
    if (mock !== undefined) return Promise.resolve(mockTextCompletion(mock, endpoint.target.model));
    return this.#json(endpoint, 'textCompletion', body, options);
  }

  imageGeneration(
    endpoint: Endpoint,
    body: ImageGenerationRequest,
    options: CallOptions,
  ): Promise<ImageGenerationResponse> {
    return this.#json(endpoint, 'imageGeneration', body, options);
  }

  transcription(
    endpoint: Endpoint,
    body: TranscriptionRequest,
    options: CallOptions,
  ): Promise<TranscriptionResponse> {
    return this.#json(endpoint, 'transcription', body, options);
  }

  /** Speech: resolves once the audio's headers arrive, with its bytes still streaming. */
  async speech(endpoint: Endpoint, body: SpeechRequest, options: CallOptions): Promise<SpeechResponse> {
    const { adapter, target } = endpoint;
    if (!adapter.speech) throw notOffered(endpoint, 'speech');
    const answer = await invokeBinary(this.http, adapter, adapter.speech, body, target, options);
    return { content_type: answer.contentType, body: answer.body };
  }

  moderation(endpoint: Endpoint, body: ModerationRequest, options: CallOptions): Promise<ModerationResponse> {
    return this.#json(endpoint, 'moderation', body, options);
  }

  rerank(endpoint: Endpoint, body: RerankRequest, options: CallOptions): Promise<RerankResponse> {
    return this.#json(endpoint, 'rerank', body, options);
  }

  #json<K extends JsonKind>(
    endpoint: Endpoint,
    kind: K,
    body: Parameters<NonNullable<ProviderAdapter[K]>['build']>[0],
    options: CallOptions,
  ): Promise<Awaited<ReturnType<NonNullable<ProviderAdapter[K]>['parse']>>> {
    const { adapter, target } = endpoint;
    const operation = adapter[kind] as JsonOperation<typeof body, never> | undefined;
    if (!operation) return Promise.reject(notOffered(endpoint, kind));
    return invokeJson(this.http, adapter, operation, body, target, options);
  }
}

/** The executor's operations as the call path runs them: one function each, made once per router. */
export interface ExecutorRuns {
  chat: Run<ChatCompletionRequest, ChatCompletion>;
  chatStream: Run<ChatCompletionRequest, OpenedStream>;
  embedding: Run<EmbeddingRequest, EmbeddingResponse>;
  textCompletion: Run<TextCompletionRequest, TextCompletion>;
  imageGeneration: Run<ImageGenerationRequest, ImageGenerationResponse>;
  transcription: Run<TranscriptionRequest, TranscriptionResponse>;
  speech: Run<SpeechRequest, SpeechResponse>;
  moderation: Run<ModerationRequest, ModerationResponse>;
  rerank: Run<RerankRequest, RerankResponse>;
}

/** Binds the executor's operations to it, for the router to hand each call. */
export function executorRuns(executor: Executor): ExecutorRuns {
  return {
    chat: (e, b, o, m) => executor.chat(e, b, o, m),
    chatStream: (e, b, o, m) => executor.chatStream(e, b, o, m),
    embedding: (e, b, o) => executor.embedding(e, b, o),
    textCompletion: (e, b, o, m) => executor.textCompletion(e, b, o, m),
    imageGeneration: (e, b, o) => executor.imageGeneration(e, b, o),
    transcription: (e, b, o) => executor.transcription(e, b, o),
    speech: (e, b, o) => executor.speech(e, b, o),
    moderation: (e, b, o) => executor.moderation(e, b, o),
    rerank: (e, b, o) => executor.rerank(e, b, o),
  };
}
