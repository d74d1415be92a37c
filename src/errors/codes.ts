/**
 * Every stable `code` a router error carries: one per error class, plus finer ones where the mapping
 * knows more (`insufficient_quota` is a RateLimitError that waiting will not cure, `request_too_large` a
 * BadRequestError for a body the provider would not read). docs/errors.md lists them.
 */
export const ROUTER_ERROR_CODES = [
  'bad_request',
  'request_too_large',
  'model_unpriced',
  'no_deployment_for_tags',
  'context_window_exceeded',
  'content_policy_violation',
  'authentication',
  'permission_denied',
  'not_found',
  'timeout',
  'rate_limit',
  'insufficient_quota',
  'no_deployments_available',
  'internal_server',
  'service_unavailable',
  'api_connection',
  'api_error',
] as const;

/** A stable error code: what went wrong, whichever provider said it and however it spelled it. */
export type RouterErrorCode = (typeof ROUTER_ERROR_CODES)[number];

/**
 * A provider's own error codes (as its `readError` or its stream error events report them:
 * `RESOURCE_EXHAUSTED`, `ThrottlingException`, `overloaded_error`) and the router code each stands for.
 * Declared by a provider adapter (`ProviderAdapter.errorCodes`).
 */
export type ProviderErrorCodes = Readonly<Record<string, RouterErrorCode>>;

const KNOWN: ReadonlySet<string> = new Set(ROUTER_ERROR_CODES);

/** Whether `value` is one of the stable router error codes. */
export function isRouterErrorCode(value: unknown): value is RouterErrorCode {
  return typeof value === 'string' && KNOWN.has(value);
}

/** The HTTP status each code stands for (a code's class's status, or a finer one). */
export const CODE_STATUS: Readonly<Record<RouterErrorCode, number>> = Object.freeze({
  bad_request: 400,
  request_too_large: 413,
  model_unpriced: 400,
  no_deployment_for_tags: 400,
  context_window_exceeded: 400,
  content_policy_violation: 400,
  authentication: 401,
  permission_denied: 403,
  not_found: 404,
  timeout: 408,
  rate_limit: 429,
  insufficient_quota: 429,
  no_deployments_available: 429,
  internal_server: 500,
  service_unavailable: 503,
  api_connection: 500,
  api_error: 500,
});
