import { statusForCode, type UpstreamFailure } from '../../errors/map-error.js';
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

/**
 * The failure an error object inside a 200 answer stands for (an SSE `data:` frame, or a JSON body
 * with `error` and no `choices`): `{ error: { message, code, type } }`, with a numeric `code` read as
 * the HTTP status (OpenRouter), and xAI's `{ code, error: "<text>" }`. Undefined when there is none.
 */
export function inBandError(json: Record<string, unknown>): UpstreamFailure | undefined {
  const error = asRecord(json.error);
  if (error) {
    const code = asString(error.code) ?? asString(error.type);
    const status = typeof error.code === 'number' ? error.code : (statusForCode(code) ?? 500);
    return { status, message: asString(error.message) ?? 'stream error', code };
  }
  const text = asString(json.error);
  if (text === undefined) return undefined;
  const code = asString(json.code);
  return { status: statusForCode(code) ?? 500, message: code ? `${code}: ${text}` : text, code };
}
