import type { UpstreamFailure } from '../../errors/map-error.js';
import { readOpenAIError } from '../openai-compatible/error-map.js';
import { asRecord, asString, parseJsonObject } from '../shared/json.js';

/**
 * OpenRouter's error body: `{ error: { code: <HTTP status>, message, metadata } }`. The upstream
 * provider's own error text (`metadata.raw`) is appended to the message, so a context-window error
 * behind OpenRouter still reads as one. 402 (no credits) is read as `insufficient_quota` (a
 * RateLimitError: this key can serve nothing more); a moderation refusal (`metadata.reasons`) as a
 * content policy violation.
 */
export function readOpenrouterError(
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const failure = readOpenAIError(status, bodyText, headers);
  const metadata = asRecord(asRecord(parseJsonObject(bodyText)?.error)?.metadata);
  const raw =
    asString(metadata?.raw) ?? (metadata?.raw !== undefined ? JSON.stringify(metadata.raw) : undefined);
  const message = raw ? `${failure.message}: ${raw.slice(0, 500)}` : failure.message;
  if (status === 402) return { ...failure, message, code: 'insufficient_quota' };
  if (Array.isArray(metadata?.reasons)) return { ...failure, message, code: 'content_policy_violation' };
  return { ...failure, message };
}
