import type {
  ChatCompletionRequest,
  EmbeddingResponse,
  ImageGenerationResponse,
  TextCompletion,
} from '../../types/index.js';
import type { WireRequest } from '../shared/http-client.js';
import { asRecord } from '../shared/json.js';
import { RawUpload } from '../shared/multipart.js';
import type { CallOptions, ProviderAdapter, ProviderTarget } from '../shared/provider-adapter.js';
import type { ReasoningHistorySupport } from '../shared/reasoning-history.js';
import { requestDefaultsFor, requestDefaultsWithoutReasoning } from '../shared/request-defaults.js';
import { requiredList, throwMissing } from '../shared/success-body.js';
import { type ChatBodyPlan, toChatBody, toOpenAIBody } from './convert-request.js';
import { toChatCompletion, toUsage } from './convert-response.js';
import { readOpenAIError } from './error-map.js';
import { mediaOperations } from './media-operations.js';
import type { OpenAICompatibleOptions, ResponseHooks } from './options.js';
import { OpenAIChunkTransform, openAIChunks } from './stream-transform.js';

export type { ChunkTransform, OpenAICompatibleOptions } from './options.js';

// Headers, URLs and body plans depend on the deployment only: made once per target, not per call
// (undici copies the headers it sends, so one object can serve every call).
const bearerCache = new WeakMap<ProviderTarget, Record<string, string>>();

function bearerHeaders(target: ProviderTarget): Record<string, string> {
  let headers = bearerCache.get(target);
  if (!headers) {
    headers = target.apiKey
      ? { 'content-type': 'application/json', authorization: `Bearer ${target.apiKey}` }
      : { 'content-type': 'application/json' };
    bearerCache.set(target, headers);
  }
  return headers;
}

/** Memoises `make(target, key)` per target and key. */
function perTarget<K, V>(make: (target: ProviderTarget, key: K) => V): (target: ProviderTarget, key: K) => V {
  const cache = new WeakMap<ProviderTarget, Map<K, V>>();
  return (target, key) => {
    let byKey = cache.get(target);
    if (!byKey) {
      byKey = new Map();
      cache.set(target, byKey);
    }
    let value = byKey.get(key);
    if (value === undefined) {
      value = make(target, key);
      byKey.set(key, value);
    }
    return value;
  };
}

const NO_REASONING_HISTORY: ReasoningHistorySupport = { thinkingBlocks: false, reasoningContent: false };

/** The wire request of a POST to `path` of the deployment's `api_base`: `body` as JSON, or a `RawUpload` as is. */
export type Post = (
  target: ProviderTarget,
  call: CallOptions,
  path: string,
  body: unknown,
) => WireRequest | Promise<WireRequest>;

// The wire request of an operation: URL first (it may refuse, e.g. Azure without api_base), then the
// headers, which may have to fetch a token.
function poster(options: OpenAICompatibleOptions): Post {
  const url = perTarget<string, string>(options.url ?? ((target, path) => `${target.apiBase}/${path}`));
  const headers = options.headers ?? bearerHeaders;
  return (target, call, path, body) => {
    const href = url(target, path);
    const made = headers(target, call);
    if (made instanceof Promise) return made.then((h) => wireRequest(href, h, body));
    return wireRequest(href, made, body);
  };
}

function wireRequest(url: string, headers: Record<string, string>, body: unknown): WireRequest {
  if (body instanceof RawUpload)
    return { url, headers: { ...headers, 'content-type': body.contentType }, body: body.body };
  return { url, headers, body: JSON.stringify(body) };
}

function chatBodyMaker(options: OpenAICompatibleOptions) {
  const includeUsage = options.streamUsage ?? true;
  const planOf = perTarget<boolean, ChatBodyPlan>((target, stream) => ({
    stream,
    includeUsage,
    support: options.reasoningHistory?.(target) ?? NO_REASONING_HISTORY,
    adaptMessage: options.adaptHistoryMessage,
    adaptBody: options.adaptChatBody,
  }));
  return (request: ChatCompletionRequest, target: ProviderTarget, call: CallOptions, stream: boolean) =>
    toChatBody(request, target, requestDefaultsFor(target, request), call, planOf(target, stream));
}

/**
 * The answer as given once it holds its non-empty `key` list: a 200 without it (an error object, an
 * empty body) is a failure, never an empty success.
 */
function answerWith<T>(json: unknown, key: string, target: ProviderTarget): T {
  const body = asRecord(json);
  if (!body) return throwMissing(target, 'a body that is not a JSON object');
  requiredList(body, key, target);
  return body as T;
}

// Embeddings, text completions and image generation: the body as given, the answer as OpenAI's.
function jsonOperations(
  post: Post,
): Pick<ProviderAdapter, 'embedding' | 'textCompletion' | 'imageGeneration'> {
  return {
    embedding: {
      build: (request, target, call) => post(target, call, 'embeddings', { ...request, model: target.model }),
      parse: (json, target) => {
        const body = answerWith<EmbeddingResponse>(json, 'data', target);
        const usage = toUsage(body.usage);
        return {
          ...body,
          object: 'list',
          usage: { prompt_tokens: usage.prompt_tokens, total_tokens: usage.total_tokens },
        };
      },
    },
    textCompletion: {
      // reasoning presets are chat fields: text completions take neither
      build: (request, target, call) =>
        post(
          target,
          call,
          'completions',
          toOpenAIBody(request, target, requestDefaultsWithoutReasoning(target)),
        ),
      parse: (json, target) => {
        const body = answerWith<TextCompletion>(json, 'choices', target);
        return { ...body, object: 'text_completion', usage: toUsage(body.usage) };
      },
    },
    imageGeneration: {
      build: (request, target, call) =>
        post(target, call, 'images/generations', { ...request, model: target.model }),
      parse: (json, target) => answerWith<ImageGenerationResponse>(json, 'data', target),
    },
  };
}

/**
 * An adapter for a provider that speaks the OpenAI REST format: chat (plain and SSE), embeddings,
 * text completions, image generation, audio transcription and speech, moderations, and Cohere-style
 * rerank (`/rerank`, as Cohere- and Jina-style hosts serve it). Provider differences are hooks of `options`.
 *
 * @example
 * export const exampleAdapter = createOpenAICompatibleAdapter({
 *   name: 'deepseek',
 *   defaultApiBase: 'https://api.deepseek.com',
 *   apiKeyEnv: 'DEEPSEEK_API_KEY',
 * });
 */
export function createOpenAICompatibleAdapter(options: OpenAICompatibleOptions): ProviderAdapter {
  const post = poster(options);
  const chatBody = chatBodyMaker(options);
  const { chatPath } = options;
  const postChat = (target: ProviderTarget, call: CallOptions, body: Record<string, unknown>) =>
    post(target, call, chatPath ? chatPath(body, target) : 'chat/completions', body);
  const hooks: ResponseHooks = options;
  return {
    name: options.name,
    defaults: {
      apiBase: options.defaultApiBase,
      apiKeyEnv: options.apiKeyEnv,
      ...(options.apiKeyOptional ? { apiKeyOptional: true } : {}),
    },
    chat: {
      build: (request, target, call) => postChat(target, call, chatBody(request, target, call, false)),
      parse: (json, target) => toChatCompletion(json, target, hooks),
    },
    chatStream: {
      build: (request, target, call) => postChat(target, call, chatBody(request, target, call, true)),
      parse: (body, target, _request, monitor) => openAIChunks(body, target, hooks, monitor),
      transform: (target, _request, monitor) => new OpenAIChunkTransform(target, hooks, monitor),
    },
    ...jsonOperations(post),
    ...mediaOperations(post),
    readError: options.readError ?? readOpenAIError,
    ...(options.validate ? { validate: options.validate } : {}),
  };
}
