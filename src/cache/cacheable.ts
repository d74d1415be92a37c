import type { CacheKind } from './cache-key.js';

type Choices = { choices?: Array<{ finish_reason?: string | null }> };
type Data = { data?: unknown[] };

// a truncated answer (`length`) is still the whole answer to that request; a filtered one is not
const FINISHED = new Set(['stop', 'length', 'tool_calls', 'function_call']);

/**
 * Whether an answer may be cached: complete and successful. A chat or text completion needs every
 * choice finished (never `content_filter`, never cut); embeddings and images need their data. Errors,
 * rate limits and cut streams never reach here as answers. Pure.
 */
export function isCacheable(kind: CacheKind, answer: unknown): boolean {
  if (!answer || typeof answer !== 'object') return false;
  // audio is never cached (an upload is not hashed, speech is a stream); the others by their results
  if (kind === 'transcription' || kind === 'speech') return false;
  if (kind === 'moderation' || kind === 'rerank') {
    const results = (answer as { results?: unknown }).results;
    return Array.isArray(results) && results.length > 0;
  }
  if (kind === 'embedding' || kind === 'imageGeneration') {
    const data = (answer as Data).data;
    return Array.isArray(data) && data.length > 0;
  }
  const choices = (answer as Choices).choices;
  return (
    Array.isArray(choices) &&
    choices.length > 0 &&
    choices.every((c) => typeof c.finish_reason === 'string' && FINISHED.has(c.finish_reason))
  );
}
