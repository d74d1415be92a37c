import {
  APIConnectionError,
  AuthenticationError,
  BadRequestError,
  ContentPolicyViolationError,
  ContextWindowExceededError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
} from './classes.js';
import { redactSecrets } from './redact.js';
import { parseRetryAfterMs } from './retry-after.js';
import { RouterError, type RouterErrorOptions } from './router-error.js';

/** Who was being called when something failed; secrets are redacted from every message. */
export interface ErrorContext {
  provider: string;
  model: string;
  modelId?: string;
  /** Values that must never appear in a message (the deployment's api key, tokens). */
  secrets?: readonly (string | undefined)[];
}

/** An HTTP error answer, with the provider's own message and code already read from its body. */
export interface UpstreamFailure {
  status: number;
  headers?: Record<string, string | string[] | undefined>;
  message: string;
  /** The provider's error code or type (`context_length_exceeded`, `rate_limit_error`, `RESOURCE_EXHAUSTED`). */
  code?: string | undefined;
}

type ErrorClass = new (message: string, options?: RouterErrorOptions) => RouterError;

const CONTEXT_CODES = new Set(['context_length_exceeded', 'string_above_max_length']);
const CONTEXT_TEXT =
  /context[_ ]length|context window|maximum context|prompt is too long|input is too long|too many (input )?tokens|exceeds the (maximum|max) (number of )?tokens|input length .* exceeds|reduce the length of the messages|maximum prompt length is \d+/i;
const POLICY_CODES = new Set([
  'content_filter',
  'content_policy_violation',
  'content_policy_violation_error',
]);
const POLICY_TEXT =
  /content management policy|content[_ ]policy|safety system|flagged as (potentially )?(unsafe|harmful)/i;
// Provider error codes that decide the class whatever the HTTP status (Bedrock stream exceptions use
// lower camel case, e.g. `throttlingException`).
const RATE_LIMIT_CODES = new Set([
  'rate_limit_exceeded',
  'rate_limit_error',
  'RESOURCE_EXHAUSTED',
  'ThrottlingException',
  'throttlingException',
  'TooManyRequestsException',
  'ServiceQuotaExceededException',
  'too_many_requests',
  'insufficient_quota',
]);
const UNAVAILABLE_CODES = new Set([
  'overloaded_error',
  'UNAVAILABLE',
  'ServiceUnavailableException',
  'serviceUnavailableException',
  'ModelNotReadyException',
]);
const TIMEOUT_ERROR_CODES = new Set(['DEADLINE_EXCEEDED', 'ModelTimeoutException', 'modelTimeoutException']);
// AWS answers bad or expired credentials with 403: they are authentication failures all the same
const AUTHENTICATION_CODES = new Set([
  'UNAUTHENTICATED',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'IncompleteSignatureException',
  'ExpiredTokenException',
  'authentication_error',
]);
// the model failed on the provider's side (Bedrock answers 424)
const SERVER_ERROR_CODES = new Set([
  'ModelErrorException',
  'modelStreamErrorException',
  'ModelStreamErrorException',
]);

/**
 * The HTTP status a provider error code stands for, for errors that arrive inside a 200 stream
 * (Anthropic `error` events, Bedrock exception frames, Gemini error chunks). Undefined when unknown.
 */
export function statusForCode(code: string | undefined): number | undefined {
  if (!code) return undefined;
  if (RATE_LIMIT_CODES.has(code)) return 429;
  if (UNAVAILABLE_CODES.has(code)) return 503;
  if (TIMEOUT_ERROR_CODES.has(code)) return 408;
  return CODE_STATUS[code];
}

const CODE_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  ValidationException: 400,
  validationException: 400,
  request_too_large: 413,
  authentication_error: 401,
  UNAUTHENTICATED: 401,
  UnrecognizedClientException: 401,
  permission_error: 403,
  PERMISSION_DENIED: 403,
  AccessDeniedException: 403,
  not_found_error: 404,
  NOT_FOUND: 404,
  ResourceNotFoundException: 404,
  api_error: 500,
  INTERNAL: 500,
  InternalServerException: 500,
  internalServerException: 500,
  ModelErrorException: 500,
  modelStreamErrorException: 500,
  ModelStreamErrorException: 500,
};

function classFor(failure: UpstreamFailure): ErrorClass {
  const { status, code, message } = failure;
  if (code && RATE_LIMIT_CODES.has(code)) return RateLimitError;
  if (code && UNAVAILABLE_CODES.has(code)) return ServiceUnavailableError;
  if (code && TIMEOUT_ERROR_CODES.has(code)) return TimeoutError;
  if (code && AUTHENTICATION_CODES.has(code)) return AuthenticationError;
  if (code && SERVER_ERROR_CODES.has(code)) return InternalServerError;
  if (status >= 400 && status < 500 && status !== 429) {
    if ((code && CONTEXT_CODES.has(code)) || CONTEXT_TEXT.test(message)) return ContextWindowExceededError;
    if ((code && POLICY_CODES.has(code)) || POLICY_TEXT.test(message)) return ContentPolicyViolationError;
  }
  switch (status) {
    case 401:
      return AuthenticationError;
    case 403:
      return PermissionDeniedError;
    case 404:
      return NotFoundError;
    case 408:
      return TimeoutError;
    case 429:
      return RateLimitError;
    case 502:
    case 503:
    case 504:
    case 529:
      return ServiceUnavailableError;
    default:
      return status >= 500 ? InternalServerError : BadRequestError;
  }
}

/**
 * The one mapping from an HTTP error answer to a contract error class. Provider adapters read their
 * own error body into `message` and `code`; everything else is decided here.
 */
export function errorFromResponse(failure: UpstreamFailure, ctx: ErrorContext): RouterError {
  const Class = classFor(failure);
  const text = redactSecrets(failure.message || `HTTP ${failure.status}`, ctx.secrets);
  const error = new Class(`${ctx.provider}/${ctx.model} answered ${failure.status}: ${text}`, {
    provider: ctx.provider,
    model: ctx.model,
    modelId: ctx.modelId,
    upstreamStatus: failure.status,
    retryAfterMs: parseRetryAfterMs(failure.headers),
  });
  return error;
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Maps a failure that produced no HTTP answer to TimeoutError (undici's connect, headers and body
 * timeouts) or APIConnectionError (refused, reset, socket closed, cut stream: anything else).
 * Router errors pass through unchanged.
 */
export function errorFromNetwork(err: unknown, ctx: ErrorContext, what = 'request'): RouterError {
  if (RouterError.isInstance(err)) return err;
  const code = errorCode(err);
  const raw = err instanceof Error ? err.message : String(err);
  const reason = redactSecrets(code && !raw.includes(code) ? `${raw} (${code})` : raw, ctx.secrets);
  const options = { provider: ctx.provider, model: ctx.model, modelId: ctx.modelId, cause: err };
  if (code && TIMEOUT_CODES.has(code)) {
    return new TimeoutError(`${ctx.provider}/${ctx.model} ${what} timed out: ${reason}`, options);
  }
  return new APIConnectionError(`${ctx.provider}/${ctx.model} ${what} failed: ${reason}`, options);
}
