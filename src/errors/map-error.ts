import {
  APIConnectionError,
  AuthenticationError,
  BadRequestError,
  ContentPolicyViolationError,
  ContextWindowExceededError,
  InternalServerError,
  NoDeploymentsAvailableError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
} from './classes.js';
import { CODE_STATUS, isRouterErrorCode, type ProviderErrorCodes, type RouterErrorCode } from './codes.js';
import { networkReason } from './network-reason.js';
import { redactSecrets } from './redact.js';
import { parseRetryAfterMs } from './retry-after.js';
import { RouterError, type RouterErrorOptions } from './router-error.js';
import { upstreamBodyOf } from './upstream-body.js';

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
  /** The error body as the provider sent it; kept, redacted and bounded, as the error's `upstreamBody`. */
  body?: string | undefined;
}

type ErrorClass = new (message: string, options?: RouterErrorOptions) => RouterError;

// The class of every code errorFromResponse can give.
const CLASS_OF: Readonly<Record<RouterErrorCode, ErrorClass>> = {
  bad_request: BadRequestError,
  request_too_large: BadRequestError,
  model_unpriced: BadRequestError,
  no_deployment_for_tags: BadRequestError,
  context_window_exceeded: ContextWindowExceededError,
  content_policy_violation: ContentPolicyViolationError,
  authentication: AuthenticationError,
  permission_denied: PermissionDeniedError,
  not_found: NotFoundError,
  timeout: TimeoutError,
  rate_limit: RateLimitError,
  insufficient_quota: RateLimitError,
  no_deployments_available: NoDeploymentsAvailableError,
  internal_server: InternalServerError,
  service_unavailable: ServiceUnavailableError,
  api_connection: APIConnectionError,
  api_error: InternalServerError,
};

/**
 * The codes of the OpenAI error format, which most providers and gateways speak; a provider with its
 * own codes declares them on its adapter (`errorCodes`), and they are read first.
 */
const OPENAI_FORMAT_CODES: ProviderErrorCodes = {
  context_length_exceeded: 'context_window_exceeded',
  string_above_max_length: 'context_window_exceeded',
  content_filter: 'content_policy_violation',
  content_policy_violation: 'content_policy_violation',
  content_policy_violation_error: 'content_policy_violation',
  rate_limit_exceeded: 'rate_limit',
  rate_limit_error: 'rate_limit',
  too_many_requests: 'rate_limit',
  insufficient_quota: 'insufficient_quota',
  authentication_error: 'authentication',
  invalid_request_error: 'bad_request',
};

const CONTEXT_TEXT =
  /context[_ ]length|context window|maximum context|prompt is too long|input is too long|too many (input )?tokens|exceeds the (maximum|max) (number of )?tokens|input length .* exceeds|reduce the length of the messages|maximum prompt length is \d+/i;
const POLICY_TEXT =
  /content management policy|content[_ ]policy|safety system|flagged as (potentially )?(unsafe|harmful)/i;

function lookup(codes: ProviderErrorCodes | undefined, code: string): RouterErrorCode | undefined {
  // own properties only: a provider code such as `constructor` must not find Object.prototype's
  const value = codes && Object.hasOwn(codes, code) ? codes[code] : undefined;
  return isRouterErrorCode(value) ? value : undefined;
}

/** The router code a provider's error code stands for: the adapter's table first, then the OpenAI format's. */
function routerCodeOf(code: string | undefined, codes: ProviderErrorCodes | undefined) {
  if (!code) return undefined;
  return lookup(codes, code) ?? lookup(OPENAI_FORMAT_CODES, code);
}

/**
 * The HTTP status a provider error code stands for, for errors that arrive inside a 200 stream
 * (Anthropic `error` events, Bedrock exception frames, Gemini error chunks). `codes` are the provider
 * adapter's own (`errorCodes`). Undefined when unknown.
 */
export function statusForCode(
  code: string | undefined,
  codes?: ProviderErrorCodes | undefined,
): number | undefined {
  const routerCode = routerCodeOf(code, codes);
  return routerCode && CODE_STATUS[routerCode];
}

function codeForStatus(status: number): RouterErrorCode {
  switch (status) {
    case 401:
      return 'authentication';
    case 403:
      return 'permission_denied';
    case 404:
      return 'not_found';
    case 408:
      return 'timeout';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit';
    case 502:
    case 503:
    case 504:
    case 529:
      return 'service_unavailable';
    default:
      return status >= 500 ? 'internal_server' : 'bad_request';
  }
}

/**
 * What an error answer means. A provider code that names something decides, whatever the status (AWS
 * answers bad credentials with 403, Bedrock a failed model with 424); a generic "invalid request" code
 * says no more than a 4xx status, so then the message is read for a context window or content policy
 * refusal, and else the status decides.
 */
function codeOf(failure: UpstreamFailure, codes: ProviderErrorCodes | undefined): RouterErrorCode {
  const { status, message } = failure;
  const named = routerCodeOf(failure.code, codes);
  if (named && named !== 'bad_request') return named;
  if (status >= 400 && status < 500 && status !== 429) {
    if (CONTEXT_TEXT.test(message)) return 'context_window_exceeded';
    if (POLICY_TEXT.test(message)) return 'content_policy_violation';
  }
  return codeForStatus(status);
}

/**
 * The one mapping from an HTTP error answer to a contract error class and stable `code`. Provider
 * adapters read their own error body into `message` and `code` and declare what their codes mean
 * (`codes`, the adapter's `errorCodes`); everything else is decided here. The body, when given, is kept
 * as `upstreamBody`, redacted and bounded.
 */
export function errorFromResponse(
  failure: UpstreamFailure,
  ctx: ErrorContext,
  codes?: ProviderErrorCodes | undefined,
): RouterError {
  const code = codeOf(failure, codes);
  const Class = CLASS_OF[code];
  const text = redactSecrets(failure.message || `HTTP ${failure.status}`, ctx.secrets);
  return new Class(`${ctx.provider}/${ctx.model} answered ${failure.status}: ${text}`, {
    provider: ctx.provider,
    model: ctx.model,
    modelId: ctx.modelId,
    code,
    upstreamStatus: failure.status,
    upstreamBody: upstreamBodyOf(failure.body, ctx.secrets),
    retryAfterMs: parseRetryAfterMs(failure.headers),
  });
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
 * The message never names the upstream's address (`connection refused (ECONNREFUSED)`); the original
 * error is the `cause`. Router errors pass through unchanged.
 */
export function errorFromNetwork(err: unknown, ctx: ErrorContext, what = 'request'): RouterError {
  if (RouterError.isInstance(err)) return err;
  const code = errorCode(err);
  const reason = redactSecrets(networkReason(err, code), ctx.secrets);
  const options = { provider: ctx.provider, model: ctx.model, modelId: ctx.modelId, cause: err };
  if (code && TIMEOUT_CODES.has(code)) {
    return new TimeoutError(`${ctx.provider}/${ctx.model} ${what} timed out: ${reason}`, options);
  }
  return new APIConnectionError(`${ctx.provider}/${ctx.model} ${what} failed: ${reason}`, options);
}
