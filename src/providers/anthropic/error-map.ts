import type { UpstreamFailure } from '../../errors/map-error.js';
import { asRecord, asString, parseJsonObject } from '../shared/json.js';

/**
 * Reads an Anthropic error body (`{ "type": "error", "error": { "type", "message" } }`) into the
 * provider's message and error type; the shared mapping picks the class from status, type and message
 * (`overloaded_error` -> ServiceUnavailableError, "prompt is too long" -> ContextWindowExceededError).
 * Bodies that are not Anthropic's (a proxy's HTML page, plain text) keep their first 500 characters.
 */
export function readAnthropicError(
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const body = parseJsonObject(bodyText);
  const error = asRecord(body?.error);
  const message =
    asString(error?.message) ?? asString(body?.message) ?? asString(body?.error) ?? bodyText.slice(0, 500);
  const code = asString(error?.type) ?? asString(body?.type);
  return { status, headers, message, code: code === 'error' ? undefined : code };
}
