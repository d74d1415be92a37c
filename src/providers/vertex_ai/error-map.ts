import type { UpstreamFailure } from '../../errors/map-error.js';
import { readGoogleError } from '../gemini/error-map.js';
import { asRecord, parseJsonObject } from '../shared/json.js';
import { vertexClaudeAdapter } from './claude.js';

/**
 * Reads a Vertex AI error body. Vertex answers in Google's shape (`{ error: { code, message, status } }`)
 * for everything it decides itself (auth, quota, unknown model), and Claude models answer in
 * Anthropic's shape (`{ type: 'error', error: { type, message } }`); the body tells which.
 */
export function readVertexError(
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const body = parseJsonObject(bodyText);
  const anthropic = body?.type === 'error' && typeof asRecord(body.error)?.type === 'string';
  return anthropic
    ? vertexClaudeAdapter.readError(status, bodyText, headers)
    : readGoogleError(status, bodyText, headers);
}
