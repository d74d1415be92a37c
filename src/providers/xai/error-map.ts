import type { UpstreamFailure } from '../../errors/map-error.js';
import { readOpenAIError } from '../openai-compatible/error-map.js';
import { asString, parseJsonObject } from '../shared/json.js';

/**
 * xAI answers errors in two shapes: OpenAI's `{ error: { message, type, code } }`, and its own
 * `{ code: "<gRPC status text>", error: "<message>" }` (e.g. `Client specified an invalid argument`
 * with `Argument not supported on this model: reasoningEffort`). The second is read as
 * "`<code>`: `<error>`"; the HTTP status picks the class.
 */
export function readXaiError(
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const body = parseJsonObject(bodyText);
  const text = asString(body?.error);
  const code = asString(body?.code);
  if (text !== undefined && code !== undefined) return { status, headers, message: `${code}: ${text}` };
  return readOpenAIError(status, bodyText, headers);
}
