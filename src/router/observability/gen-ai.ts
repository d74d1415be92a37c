import type { CacheKind } from '../../cache/cache-key.js';
import { RouterError } from '../../errors/router-error.js';

/** `gen_ai.operation.name` of each kind of call (OpenTelemetry GenAI semantic conventions). */
export const GEN_AI_OPERATIONS: Readonly<Record<CacheKind, string>> = Object.freeze({
  chat: 'chat',
  embedding: 'embeddings',
  textCompletion: 'text_completion',
  // not named by the conventions (yet): the closest plain name
  imageGeneration: 'image_generation',
  transcription: 'audio_transcription',
  speech: 'audio_speech',
  moderation: 'moderation',
  rerank: 'rerank',
});

// the conventions' well-known `gen_ai.provider.name` values where they differ from ours
const PROVIDER_NAMES: Readonly<Record<string, string>> = Object.freeze({
  azure: 'azure.ai.openai',
  gemini: 'gcp.gemini',
  vertex_ai: 'gcp.vertex_ai',
  bedrock: 'aws.bedrock',
  xai: 'x_ai',
});

/** `gen_ai.provider.name` of a provider: the conventions' well-known value, else the provider's own name. */
export function genAiProviderName(provider: string): string {
  return PROVIDER_NAMES[provider] ?? provider;
}

/**
 * `error.type`: the error's class name (`RateLimitError`, `TimeoutError`, ...), a small fixed set, fit
 * for a metric label or a span attribute; `Error` for anything that is not a router error.
 */
export function errorType(error: unknown): string {
  if (RouterError.isInstance(error)) return error.name;
  return error instanceof Error && error.name === 'AbortError' ? 'AbortError' : 'Error';
}

/** `2xx`, `4xx`, `5xx`: the class of an HTTP status, a bounded label. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}
