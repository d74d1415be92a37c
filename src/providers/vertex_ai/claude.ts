import { createAnthropicAdapter } from '../anthropic/index.js';
import type { ProviderAdapter, ProviderTarget } from '../shared/provider-adapter.js';
import { vertexHeaders } from './auth.js';
import { vertexModelUrl } from './location.js';

/** The `anthropic_version` Vertex AI's Claude endpoints require in the body. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** Whether a Vertex model is Claude (served by the Anthropic publisher). */
export function isClaudeModel(target: ProviderTarget): boolean {
  return /^claude/i.test(target.model);
}

/**
 * Claude on Vertex AI: the Anthropic Messages body without `model` (the URL names it) and with
 * `anthropic_version: vertex-2023-10-16`, posted to `.../publishers/anthropic/models/{model}:rawPredict`
 * or `:streamRawPredict`, with the same auth as Gemini on Vertex. Answers are Anthropic-type: they
 * carry `thinking_blocks`.
 */
export const vertexClaudeAdapter: ProviderAdapter = createAnthropicAdapter({
  name: 'vertex_ai',
  url: (target, stream) => vertexModelUrl(target, 'anthropic', stream ? 'streamRawPredict' : 'rawPredict'),
  headers: (target, call) => vertexHeaders(target, call),
  body: ({ model: _model, ...rest }) => ({ ...rest, anthropic_version: VERTEX_ANTHROPIC_VERSION }),
});
