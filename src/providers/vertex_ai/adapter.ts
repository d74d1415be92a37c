import { googleAuthLibrary } from '../../peers/google-auth.js';
import type { OptionalPeer } from '../../peers/optional-peer.js';
import { ANTHROPIC_ERROR_CODES } from '../anthropic/error-codes.js';
import { anthropicReasoningParams } from '../anthropic/reasoning-params.js';
import { type GeminiEndpoint, geminiChatOperations } from '../gemini/adapter.js';
import { GOOGLE_ERROR_CODES } from '../gemini/error-codes.js';
import { geminiReasoningParams } from '../gemini/reasoning-params.js';
import type { ProviderAdapter, ProviderTarget } from '../shared/provider-adapter.js';
import { problemsOf } from '../shared/validate.js';
import { checkGoogleAuth, vertexHeaders } from './auth.js';
import { isClaudeModel, vertexClaudeAdapter } from './claude.js';
import { readVertexError } from './error-map.js';
import { vertexModelUrl, vertexProject } from './location.js';

const vertexGemini: GeminiEndpoint = {
  url: (target, method) =>
    vertexModelUrl(target, 'google', method === 'streamGenerateContent' ? `${method}?alt=sse` : method),
  headers: (target, options) => vertexHeaders(target, options),
};

const gemini = geminiChatOperations(vertexGemini);

// a model name naming Claude (`claude-sonnet-4-5`, `publishers/anthropic/models/claude-...`)
const CLAUDE = /(^|[./])claude/i;

/**
 * What a Vertex deployment lacks before any call, for `validate`: a project, and google-auth-library
 * when it has no `api_key`. `library` is the package its tokens come from.
 */
export function vertexProblems(
  target: ProviderTarget,
  library: OptionalPeer<unknown> = googleAuthLibrary,
): string[] {
  return problemsOf(
    () => vertexProject(target),
    () => checkGoogleAuth(target, library),
  );
}

/** The chat operations serving a Vertex model: Anthropic's for Claude models, Gemini's for the rest. */
function operationsFor(target: ProviderTarget): Pick<ProviderAdapter, 'chat' | 'chatStream'> {
  return isClaudeModel(target) ? vertexClaudeAdapter : gemini;
}

/**
 * Vertex AI (`vertex_ai/`, `vertexai/`): Gemini models at
 * `{api_base}/v1/projects/{vertex_project}/locations/{vertex_location}/publishers/google/models/{model}:generateContent`
 * (and `:streamGenerateContent?alt=sse`), Claude models (names starting with `claude`) at
 * `.../publishers/anthropic/models/{model}:rawPredict` / `:streamRawPredict`. Auth: `Authorization:
 * Bearer {api_key}` when svc_params has `api_key`, else a google-auth-library token (ADC or
 * `vertex_credentials`).
 */
export const vertexAdapter: ProviderAdapter = {
  name: 'vertex_ai',
  prefixes: ['vertex_ai', 'vertexai'],
  chat: {
    build: (request, target, options) => operationsFor(target).chat.build(request, target, options),
    parse: (json, target, request) => operationsFor(target).chat.parse(json, target, request),
  },
  chatStream: {
    build: (request, target, options) => operationsFor(target).chatStream.build(request, target, options),
    parse: (body, target, request, monitor) =>
      operationsFor(target).chatStream.parse(body, target, request, monitor),
    // both Gemini's and Anthropic's streams have a synchronous transform
    transform: (target, request, monitor) =>
      operationsFor(target).chatStream.transform!(target, request, monitor),
  },
  readError: readVertexError,
  // Vertex answers in Google's shape, and Claude models in Anthropic's
  errorCodes: Object.freeze({ ...GOOGLE_ERROR_CODES, ...ANTHROPIC_ERROR_CODES }),
  reasoningParams: (request, model) =>
    CLAUDE.test(model)
      ? { ...anthropicReasoningParams(request) }
      : { ...geminiReasoningParams({ ...request, model }) },
  validate: (target) => vertexProblems(target),
};
