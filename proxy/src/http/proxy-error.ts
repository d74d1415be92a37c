import { RouterError } from '@svc/router';
import { JwtAuthError } from '@svc/router/jwt';
import { DatabaseUnavailableError, DuplicateError } from '../db/db-errors.js';

/** The OpenAI-style `type` for each status the proxy answers with. */
const TYPE_FOR_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout',
  409: 'conflict_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  503: 'service_unavailable',
};

/**
 * An error the proxy itself decides (auth, limits, bodies): sent as
 * `{ "error": { "message", "type", "code" } }` with `status`.
 */
export class ProxyError extends Error {
  readonly type: string;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra response headers (`retry-after`). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ProxyError';
    this.type = TYPE_FOR_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  }
}

/** The JSON error body every proxy route answers with. */
export interface ErrorBody {
  error: { message: string; type: string; code: string; param?: string | null };
}

/** What a thrown value becomes on the wire: status, body and headers. Never includes a secret. */
export interface ErrorReply {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

/**
 * The body the contract fixes word for word for this error, if it does: a failed `custom_validate` is
 * `{"error": "Invalid JWT token"}` (CONTRACT 4). Undefined for every other error.
 */
export function fixedBody(error: unknown): { error: string } | undefined {
  if (JwtAuthError.isInstance(error) && error.code === 'custom_validate_failed') {
    return { error: 'Invalid JWT token' };
  }
  return undefined;
}

/** Fastify's own client errors (empty JSON body, body too large, wrong content type) carry these. */
interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message: string;
}

const FASTIFY_CODES: Readonly<Record<string, string>> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'request_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
};

/** Turns anything a route threw into the reply: library errors keep their status and code. */
export function errorReply(error: unknown): ErrorReply {
  return (
    decidedReply(error) ??
    reply(500, 'api_error', 'internal_error', 'The proxy failed to handle this request.')
  );
}

/**
 * Whether `error` is none the proxy knows how to answer (a bug, or a database error nobody mapped): it
 * becomes a 500 `internal_error` whose cause only the log can tell.
 */
export function isUnexpected(error: unknown): boolean {
  return decidedReply(error) === undefined;
}

/** The reply for an error the proxy, the router, JWT auth, the database layer or fastify decided. */
function decidedReply(error: unknown): ErrorReply | undefined {
  if (error instanceof ProxyError) {
    return reply(error.status, error.type, error.code, error.message, { ...error.headers });
  }
  if (JwtAuthError.isInstance(error)) {
    return reply(error.status, TYPE_FOR_STATUS[error.status]!, error.code, error.message);
  }
  if (RouterError.isInstance(error)) {
    const headers: Record<string, string> = {};
    if (error.retryAfterMs !== undefined && error.status === 429) {
      headers['retry-after'] = String(Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
    }
    return reply(error.status, error.type, error.code, error.message, headers);
  }
  if (error instanceof DuplicateError) return reply(409, 'conflict_error', 'duplicate', `${error.message}.`);
  if (error instanceof DatabaseUnavailableError) {
    return reply(
      503,
      'service_unavailable',
      'database_unavailable',
      'The database is not answering; try again shortly.',
    );
  }
  const fastifyError = error as FastifyLikeError;
  const code = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (code && fastifyError.statusCode) {
    const status = fastifyError.statusCode;
    return reply(
      status,
      TYPE_FOR_STATUS[status] ?? 'invalid_request_error',
      code,
      clientMessage(code, fastifyError),
    );
  }
  return undefined;
}

function clientMessage(code: string, error: FastifyLikeError): string {
  if (code === 'invalid_json')
    return `The request body is not valid JSON: ${error.message.replace(/^Body /, '')}`;
  if (code === 'request_too_large')
    return 'The request body is larger than the proxy accepts (max_request_body_mb).';
  if (code === 'unsupported_media_type') return 'Send the request body as application/json.';
  return error.message;
}

function reply(
  status: number,
  type: string,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): ErrorReply {
  return { status, body: { error: { message, type, code } }, headers };
}
