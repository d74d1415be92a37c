import type { ChatCompletionRequest, ProviderName } from '../../types/index.js';
import type { WireRequest } from '../shared/http-client.js';
import type { CallOptions, ProviderAdapter, ProviderTarget } from '../shared/provider-adapter.js';
import { toAnthropicBody } from './convert-request.js';
import { toChatCompletion } from './convert-response.js';
import { ANTHROPIC_ERROR_CODES } from './error-codes.js';
import { readAnthropicError } from './error-map.js';
import { anthropicReasoningParams } from './reasoning-params.js';
import { AnthropicChunkTransform, anthropicChunks } from './stream-transform.js';

/** What distinguishes one host of the Anthropic Messages format from another (Anthropic, Vertex AI). */
export interface AnthropicAdapterOptions {
  name: ProviderName;
  /** The URL of a call; `stream` tells a streaming call apart (Vertex: `:streamRawPredict`). */
  url(target: ProviderTarget, stream: boolean): string;
  /** Auth and version headers; `content-type: application/json` is always added. May be async (tokens). */
  headers(
    target: ProviderTarget,
    call: CallOptions,
  ): Record<string, string> | Promise<Record<string, string>>;
  /** Host-specific changes to the finished body (Vertex: no `model`, an `anthropic_version`). */
  body?(body: Record<string, unknown>, target: ProviderTarget): Record<string, unknown>;
  /** Used when a deployment sets no `api_base` / `api_key`. */
  defaults?: { apiBase?: string | undefined; apiKeyEnv?: string | undefined };
}

/**
 * An adapter for the Anthropic Messages format on any host: the request and response translation,
 * streaming and error reading are shared; the host gives the URL, the auth headers and its body
 * changes. Messages only: no embeddings, text completions or images.
 *
 * @example
 * const vertexClaude = createAnthropicAdapter({
 *   name: 'vertex_ai',
 *   url: (t, stream) => `${t.apiBase}/...models/${t.model}:${stream ? 'streamRawPredict' : 'rawPredict'}`,
 *   headers: async (t) => ({ authorization: `Bearer ${await tokenFor(t)}` }),
 *   body: ({ model, ...rest }) => ({ ...rest, anthropic_version: 'vertex-2023-10-16' }),
 * });
 */
export function createAnthropicAdapter(options: AnthropicAdapterOptions): ProviderAdapter {
  const finish = options.body ?? ((body) => body);
  const build = (
    request: ChatCompletionRequest,
    target: ProviderTarget,
    call: CallOptions,
    stream: boolean,
  ): WireRequest | Promise<WireRequest> => {
    const body = toAnthropicBody(request, target, call.dropParams);
    if (stream) body.stream = true;
    const wire = (headers: Record<string, string>): WireRequest => ({
      url: options.url(target, stream),
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(finish(body, target)),
    });
    const headers = options.headers(target, call);
    return headers instanceof Promise ? headers.then(wire) : wire(headers);
  };
  return {
    name: options.name,
    ...(options.defaults ? { defaults: options.defaults } : {}),
    chat: {
      build: (request, target, call) => build(request, target, call, false),
      parse: (json, target) => toChatCompletion(json, target),
    },
    chatStream: {
      build: (request, target, call) => build(request, target, call, true),
      parse: (body, target, _request, monitor) => anthropicChunks(body, target, monitor),
      transform: (target, _request, monitor) => new AnthropicChunkTransform(target, monitor),
    },
    readError: readAnthropicError,
    errorCodes: ANTHROPIC_ERROR_CODES,
  };
}

/** The Anthropic API version every request names (`anthropic-version` header). */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * Anthropic (`anthropic/`): `POST {api_base}/v1/messages` with `x-api-key` (svc_params `api_key`, else
 * `ANTHROPIC_API_KEY`) and `anthropic-version: 2023-06-01`.
 */
export const anthropicAdapter: ProviderAdapter = {
  ...createAnthropicAdapter({
    name: 'anthropic',
    url: (target) => `${target.apiBase}/v1/messages`,
    headers: (target): Record<string, string> =>
      target.apiKey
        ? { 'x-api-key': target.apiKey, 'anthropic-version': ANTHROPIC_VERSION }
        : { 'anthropic-version': ANTHROPIC_VERSION },
    defaults: { apiBase: 'https://api.anthropic.com', apiKeyEnv: 'ANTHROPIC_API_KEY' },
  }),
  prefixes: ['anthropic'],
  reasoningParams: (request) => ({ ...anthropicReasoningParams(request) }),
};
