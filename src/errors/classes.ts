import type { RouterErrorCode } from './codes.js';
import { RouterError } from './router-error.js';

/** 400: the request is malformed or asks for something the provider refuses. Never retried. */
export class BadRequestError extends RouterError {
  declare private readonly brandBadRequestError: never;
  protected static override readonly defaultCode: RouterErrorCode = 'bad_request';
  protected static override readonly defaultStatus: number = 400;
  override readonly type: string = 'invalid_request_error';
}

/** 401: the provider rejected the credentials. Cools the deployment at once. */
export class AuthenticationError extends RouterError {
  declare private readonly brandAuthenticationError: never;
  protected static override readonly defaultCode: RouterErrorCode = 'authentication';
  protected static override readonly defaultStatus: number = 401;
  override readonly type: string = 'authentication_error';
}

/** 403: the credentials are valid but lack the right. */
export class PermissionDeniedError extends RouterError {
  declare private readonly brandPermissionDeniedError: never;
  protected static override readonly defaultCode: RouterErrorCode = 'permission_denied';
  protected static override readonly defaultStatus: number = 403;
  override readonly type: string = 'permission_error';
}

/** 404: the model or endpoint does not exist at this deployment. Cools the deployment at once. */
export class NotFoundError extends RouterError {
  declare private readonly brandNotFoundError: never;
  protected static override readonly defaultCode: RouterErrorCode = 'not_found';
  protected static override readonly defaultStatus: number = 404;
  override readonly type: string = 'not_found_error';
}

/** 408: no answer within `timeout` (or `stream_timeout` between chunks). Retryable. */
export class TimeoutError extends RouterError {
  declare private readonly brandTimeoutError: never;
  protected static override readonly defaultCode: RouterErrorCode = 'timeout';
  protected static override readonly defaultStatus: number = 408;
  protected static override readonly defaultRetryable: boolean = true;
  override readonly type: string = 'timeout';
}

/** 400: the prompt does not fit the model's context window. Goes to `context_window_fallbacks`. */
export class ContextWindowExceededError extends BadRequestError {
  declare private readonly brandContextWindowExceededError: never;
  protected static override readonly defaultCode: RouterErrorCode = 'context_window_exceeded';
}

/** 400: the provider refused on content policy. Goes to `content_policy_fallbacks` only. */
export class ContentPolicyViolationError extends BadRequestError {
  declare private readonly brandContentPolicyViolationError: never;
  protected static override readonly defaultCode: RouterErrorCode = 'content_policy_violation';
}

/** 429: the provider is rate limiting this deployment. Retryable, with backoff. */
export class RateLimitError extends RouterError {
  declare private readonly brandRateLimitError: never;
  protected static override readonly defaultCode: RouterErrorCode = 'rate_limit';
  protected static override readonly defaultStatus: number = 429;
  protected static override readonly defaultRetryable: boolean = true;
  override readonly type: string = 'rate_limit_error';
}

/** 429: every deployment of the group is cooling down or filtered out (CONTRACT 2.5). */
export class NoDeploymentsAvailableError extends RateLimitError {
  declare private readonly brandNoDeploymentsAvailableError: never;
  protected static override readonly defaultCode: RouterErrorCode = 'no_deployments_available';
}

/** 500: the provider failed. Retryable. */
export class InternalServerError extends RouterError {
  declare private readonly brandInternalServerError: never;
  protected static override readonly defaultCode: RouterErrorCode = 'internal_server';
  protected static override readonly defaultStatus: number = 500;
  protected static override readonly defaultRetryable: boolean = true;
}

/** 503: the provider is overloaded or unavailable (also 502, 504, 529). Retryable. */
export class ServiceUnavailableError extends RouterError {
  declare private readonly brandServiceUnavailableError: never;
  protected static override readonly defaultCode: RouterErrorCode = 'service_unavailable';
  protected static override readonly defaultStatus: number = 503;
  protected static override readonly defaultRetryable: boolean = true;
  override readonly type: string = 'service_unavailable';
}

/** No HTTP answer at all: refused, reset, or the stream was cut. Status 500. Retryable. */
export class APIConnectionError extends RouterError {
  declare private readonly brandAPIConnectionError: never;
  protected static override readonly defaultCode: RouterErrorCode = 'api_connection';
  protected static override readonly defaultStatus: number = 500;
  protected static override readonly defaultRetryable: boolean = true;
  override readonly type: string = 'api_connection_error';
}
