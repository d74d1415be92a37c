import type {
  EmbeddingResponse,
  ImageGenerationResponse,
  ProviderName,
  TextCompletion,
} from '../../types/index.js';
import type { WireRequest } from '../shared/http-client.js';
import { asRecord } from '../shared/json.js';
import type { ProviderAdapter, ProviderTarget } from '../shared/provider-adapter.js';
import { toOpenAIBody, toOpenAIStreamBody } from './convert-request.js';
import { toChatCompletion, toUsage } from './convert-response.js';
import { readOpenAIError } from './error-map.js';
import { openAIChunks } from './stream-transform.js';

/** What distinguishes one OpenAI-compatible provider from another. */
export interface OpenAICompatibleOptions {
  name: ProviderName;
  /** Used when the deployment sets no `api_base`. Includes `/v1` where the provider's does. */
  defaultApiBase?: string;
  /** Environment variable read for the key when the deployment sets no `api_key`. */
  apiKeyEnv?: string;
  /** The URL of an operation (`chat/completions`, `embeddings`, ...). Default: `{api_base}/{path}`. */
  url?(target: ProviderTarget, path: string): string;
  /** Auth and provider headers. Default: `Authorization: Bearer {api_key}` when a key is set. */
  headers?(target: ProviderTarget): Record<string, string>;
  /** Whether streams ask for `stream_options.include_usage` (default true). */
  streamUsage?: boolean;
  /** Provider-specific changes to the chat body (reasoning parameters, unsupported fields). */
  adaptChatBody?(body: Record<string, unknown>, target: ProviderTarget): Record<string, unknown>;
}

function bearerHeaders(target: ProviderTarget): Record<string, string> {
  return target.apiKey
    ? { 'content-type': 'application/json', authorization: `Bearer ${target.apiKey}` }
    : { 'content-type': 'application/json' };
}

/** Request defaults a deployment's `svc_params` may carry (OpenAI request fields). */
export const REQUEST_DEFAULT_KEYS: readonly string[] = [
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'stop',
  'seed',
  'n',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'user',
  'response_format',
  'reasoning_effort',
  'thinking',
  'parallel_tool_calls',
];

const defaultsCache = new WeakMap<ProviderTarget, Readonly<Record<string, unknown>>>();

/** The request defaults of a target, computed once per deployment. */
export function requestDefaultsOf(target: ProviderTarget): Readonly<Record<string, unknown>> {
  let defaults = defaultsCache.get(target);
  if (!defaults) {
    const picked: Record<string, unknown> = {};
    for (const key of REQUEST_DEFAULT_KEYS)
      if (target.params[key] !== undefined) picked[key] = target.params[key];
    defaults = Object.freeze(picked);
    defaultsCache.set(target, defaults);
  }
  return defaults;
}

/**
 * An adapter for a provider that speaks the OpenAI REST format: chat (plain and SSE), embeddings,
 * text completions and image generation.
 */
export function createOpenAICompatibleAdapter(options: OpenAICompatibleOptions): ProviderAdapter {
  const url = options.url ?? ((target, path) => `${target.apiBase}/${path}`);
  const headers = options.headers ?? bearerHeaders;
  const adaptChat = options.adaptChatBody ?? ((body) => body);
  const streamUsage = options.streamUsage ?? true;
  const post = (target: ProviderTarget, path: string, body: unknown): WireRequest => ({
    url: url(target, path),
    headers: headers(target),
    body: JSON.stringify(body),
  });
  const passThrough = <T>(json: unknown): T => (asRecord(json) ?? {}) as T;

  return {
    name: options.name,
    defaults: { apiBase: options.defaultApiBase, apiKeyEnv: options.apiKeyEnv },
    chat: {
      build: (request, target) =>
        post(
          target,
          'chat/completions',
          adaptChat(toOpenAIBody(request, target, requestDefaultsOf(target)), target),
        ),
      parse: (json, target) => toChatCompletion(json, target),
    },
    chatStream: {
      build: (request, target) =>
        post(
          target,
          'chat/completions',
          adaptChat(toOpenAIStreamBody(request, target, requestDefaultsOf(target), streamUsage), target),
        ),
      parse: (body, target) => openAIChunks(body, target),
    },
    embedding: {
      build: (request, target) => post(target, 'embeddings', { ...request, model: target.model }),
      parse: (json) => {
        const body = passThrough<EmbeddingResponse>(json);
        const usage = toUsage(body.usage);
        return {
          ...body,
          object: 'list',
          usage: { prompt_tokens: usage.prompt_tokens, total_tokens: usage.total_tokens },
        };
      },
    },
    textCompletion: {
      build: (request, target) =>
        post(target, 'completions', toOpenAIBody(request, target, requestDefaultsOf(target))),
      parse: (json) => {
        const body = passThrough<TextCompletion>(json);
        return { ...body, object: 'text_completion', usage: toUsage(body.usage) };
      },
    },
    imageGeneration: {
      build: (request, target) => post(target, 'images/generations', { ...request, model: target.model }),
      parse: (json) => passThrough<ImageGenerationResponse>(json),
    },
    readError: readOpenAIError,
  };
}
