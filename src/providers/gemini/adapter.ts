import type { ChatCompletion, ChatCompletionChunk, ChatCompletionRequest } from '../../types/index.js';
import type { WireRequest } from '../shared/http-client.js';
import type {
  CallOptions,
  JsonOperation,
  ProviderAdapter,
  ProviderTarget,
  StreamOperation,
} from '../shared/provider-adapter.js';
import { toGeminiBody } from './convert-request.js';
import { toChatCompletion } from './convert-response.js';
import { bareModel, toBatchEmbedBody, toEmbeddingResponse } from './embedding.js';
import { GOOGLE_ERROR_CODES } from './error-codes.js';
import { readGoogleError } from './error-map.js';
import { geminiReasoningParams } from './reasoning-params.js';
import { GeminiChunkTransform, geminiChunks } from './stream-transform.js';

/** The Gemini methods an adapter posts to. */
export type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'batchEmbedContents';

/** Where and as whom Gemini-format calls go: AI Studio and Vertex AI differ only here. */
export interface GeminiEndpoint {
  /** The URL of a method, query string included (`:streamGenerateContent?alt=sse`). */
  url(target: ProviderTarget, method: GeminiMethod): string;
  /** Auth and content headers; may fetch a token. */
  headers(
    target: ProviderTarget,
    options: CallOptions,
  ): Record<string, string> | Promise<Record<string, string>>;
}

/** The Gemini chat operations (plain and SSE) over an endpoint. */
export function geminiChatOperations(endpoint: GeminiEndpoint): {
  chat: JsonOperation<ChatCompletionRequest, ChatCompletion>;
  chatStream: StreamOperation<ChatCompletionRequest, ChatCompletionChunk>;
} {
  const post = async (
    target: ProviderTarget,
    options: CallOptions,
    method: GeminiMethod,
    body: unknown,
  ): Promise<WireRequest> => ({
    url: endpoint.url(target, method),
    headers: await endpoint.headers(target, options),
    body: JSON.stringify(body),
  });
  return {
    chat: {
      build: (request, target, options) =>
        post(target, options, 'generateContent', toGeminiBody(request, target, options.dropParams)),
      parse: (json, target) => toChatCompletion(json, target),
    },
    chatStream: {
      build: (request, target, options) =>
        post(target, options, 'streamGenerateContent', toGeminiBody(request, target, options.dropParams)),
      parse: (body, target, _request, monitor) => geminiChunks(body, target, monitor),
      transform: (target, _request, monitor) => new GeminiChunkTransform(target, monitor),
    },
  };
}

/** Google AI Studio's default `api_base`. */
export const GEMINI_API_BASE = 'https://generativelanguage.googleapis.com';

const aiStudio: GeminiEndpoint = {
  url: (target, method) =>
    `${target.apiBase ?? GEMINI_API_BASE}/v1beta/models/${bareModel(target.model)}:${method}${
      method === 'streamGenerateContent' ? '?alt=sse' : ''
    }`,
  headers: (target): Record<string, string> => {
    const key = target.apiKey;
    return key
      ? { 'content-type': 'application/json', 'x-goog-api-key': key }
      : { 'content-type': 'application/json' };
  },
};

/**
 * Google AI Studio (`google/`, `gemini/`): `{api_base}/v1beta/models/{model}:generateContent`,
 * `:streamGenerateContent?alt=sse` and `:batchEmbedContents`, with `x-goog-api-key` (svc_params
 * `api_key`, else `GEMINI_API_KEY`, else `GOOGLE_API_KEY`).
 */
export const geminiAdapter: ProviderAdapter = {
  name: 'gemini',
  prefixes: ['google', 'gemini'],
  defaults: { apiBase: GEMINI_API_BASE, apiKeyEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'] },
  ...geminiChatOperations(aiStudio),
  embedding: {
    build: async (request, target, options) => ({
      url: aiStudio.url(target, 'batchEmbedContents'),
      headers: await aiStudio.headers(target, options),
      body: JSON.stringify(toBatchEmbedBody(request, target)),
    }),
    parse: (json, target) => toEmbeddingResponse(json, target),
  },
  readError: readGoogleError,
  errorCodes: GOOGLE_ERROR_CODES,
  reasoningParams: (request, model) => ({ ...geminiReasoningParams({ ...request, model }) }),
};
