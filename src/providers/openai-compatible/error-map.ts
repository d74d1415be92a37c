import type { UpstreamFailure } from '../../errors/map-error.js';
import { asRecord, asString, parseJsonObject } from '../shared/json.js';

/**
 * Reads an OpenAI-style error body (`{ "error": { "message", "type", "code" } }`), tolerating the plain
 * `{ "message" }`, `{ "detail" }` and text bodies that compatible servers send.
 */
export function readOpenAIError(
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const body = parseJsonObject(bodyText);
  const error = asRecord(body?.error);
  const message =
    asString(error?.message) ??
    asString(body?.error) ??
    asString(body?.message) ??
    asString(body?.detail) ??
    bodyText.slice(0, 500);
  const code = asString(error?.code) ?? asString(error?.type) ?? asString(body?.code);
  return { status, headers, message, code };
}
