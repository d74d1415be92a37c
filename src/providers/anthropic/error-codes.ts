import type { ProviderErrorCodes } from '../../errors/codes.js';

/**
 * Anthropic's error types (`error.type` of an error body or a stream `error` event) and what each
 * means. The same for Claude on Vertex AI, which answers in Anthropic's shape.
 */
export const ANTHROPIC_ERROR_CODES: ProviderErrorCodes = Object.freeze({
  invalid_request_error: 'bad_request',
  authentication_error: 'authentication',
  permission_error: 'permission_denied',
  not_found_error: 'not_found',
  request_too_large: 'request_too_large',
  rate_limit_error: 'rate_limit',
  api_error: 'internal_server',
  overloaded_error: 'service_unavailable',
});
