/** Anthropic's error body, with the proxy's stable `code` added (Anthropic clients ignore it). */
export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string; code: string };
}

/** Anthropic's error `type` for each status it uses. */
const TYPE_FOR_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'overloaded_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

const GENERIC: AnthropicErrorBody = {
  type: 'error',
  error: { type: 'api_error', message: 'The proxy failed to handle this request.', code: 'internal_error' },
};

interface DecidedError {
  status: number;
  code: string;
  message: string;
}

const CLIENT_ERROR_CODES: Readonly<Record<number, string>> = {
  413: 'request_too_large',
  415: 'unsupported_media_type',
};

function isStatus(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

// Router errors and the proxy's own errors carry a status, a stable code and a message written for
// the client; read structurally so any copy of those classes is recognised. Fastify's own client
// errors (bad JSON, body too large) carry `statusCode` and a message about the body only.
function decided(error: unknown): DecidedError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, statusCode, code, message } = error as Record<string, unknown>;
  if (typeof message !== 'string' || typeof code !== 'string') return undefined;
  if (isStatus(status, 400, 599)) return { status, code, message };
  if (isStatus(statusCode, 400, 499) && code.startsWith('FST_')) {
    return { status: statusCode, code: CLIENT_ERROR_CODES[statusCode] ?? 'invalid_request', message };
  }
  return undefined;
}

/** Anthropic's error `type` for an HTTP status; other client errors are invalid requests. */
export function anthropicErrorType(status: number): string {
  return TYPE_FOR_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/**
 * Anything a `/v1/messages` call threw as Anthropic's error body: `error.type` from the status (400
 * `invalid_request_error`, 429 `rate_limit_error`, 503 and 529 `overloaded_error`, ...), the error's
 * message and its `code`. Any other value gives a 500 `api_error` with a generic message: its own
 * message may hold anything, secrets included.
 *
 * @example anthropicErrorBody(new RateLimitError('slow down'))
 * // => { type: 'error', error: { type: 'rate_limit_error', message: 'slow down', code: 'rate_limit' } }
 */
export function anthropicErrorBody(error: unknown): AnthropicErrorBody {
  const known = decided(error);
  if (!known) return { type: 'error', error: { ...GENERIC.error } };
  return {
    type: 'error',
    error: { type: anthropicErrorType(known.status), message: known.message, code: known.code },
  };
}
