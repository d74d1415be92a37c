import type { UpstreamFailure } from '../../errors/map-error.js';
import { asRecord, asString, parseJsonObject } from '../shared/json.js';

type Headers = Record<string, string | string[] | undefined>;

/** `RetryInfo.retryDelay` ("34.4s") of a Google error's `details`, in seconds, when present. */
function retryDelaySeconds(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const d = asRecord(detail);
    if (!asString(d?.['@type'])?.endsWith('google.rpc.RetryInfo')) continue;
    const match = /^(\d+(?:\.\d+)?)s$/.exec(asString(d?.retryDelay) ?? '');
    if (match) return match[1];
  }
  return undefined;
}

/** The `ErrorInfo.reason` of a Google error's `details` (`API_KEY_INVALID`, ...), when present. */
function errorInfoReason(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const d = asRecord(detail);
    if (asString(d?.['@type'])?.endsWith('google.rpc.ErrorInfo')) return asString(d?.reason);
  }
  return undefined;
}

/**
 * Reads a Google API error body (`{ "error": { "code", "message", "status", "details" } }`, also sent
 * wrapped in an array by some front ends) into status, message and code (the `status` string such as
 * `RESOURCE_EXHAUSTED`). Two Google quirks are read here so the shared mapping stays provider-neutral:
 * an invalid API key arrives as 400 `INVALID_ARGUMENT` with reason `API_KEY_INVALID` (reported as 401
 * `UNAUTHENTICATED`), and a 429's `RetryInfo.retryDelay` becomes a `retry-after` when no header says so.
 */
export function readGoogleError(status: number, bodyText: string, headers: Headers = {}): UpstreamFailure {
  let body: unknown = parseJsonObject(bodyText);
  if (!body) {
    try {
      const parsed: unknown = JSON.parse(bodyText);
      body = Array.isArray(parsed) ? parsed[0] : undefined;
    } catch {
      body = undefined;
    }
  }
  const error = asRecord(asRecord(body)?.error);
  const message = asString(error?.message) ?? (bodyText.slice(0, 500) || `HTTP ${status}`);
  let code = asString(error?.status);
  let httpStatus = status;
  if (errorInfoReason(error?.details) === 'API_KEY_INVALID') {
    httpStatus = 401;
    code = 'UNAUTHENTICATED';
  }
  const delay = retryDelaySeconds(error?.details);
  const withRetry = delay !== undefined && headers['retry-after'] === undefined;
  return {
    status: httpStatus,
    headers: withRetry ? { ...headers, 'retry-after': delay } : headers,
    message,
    code,
  };
}
