import type { ProviderErrorCodes } from '../../errors/codes.js';

/**
 * Google's canonical error statuses (`error.status` of a Google API error, in a body or a stream chunk)
 * and what each means. Shared by Google AI Studio and Vertex AI.
 */
export const GOOGLE_ERROR_CODES: ProviderErrorCodes = Object.freeze({
  INVALID_ARGUMENT: 'bad_request',
  FAILED_PRECONDITION: 'bad_request',
  UNAUTHENTICATED: 'authentication',
  PERMISSION_DENIED: 'permission_denied',
  NOT_FOUND: 'not_found',
  RESOURCE_EXHAUSTED: 'rate_limit',
  DEADLINE_EXCEEDED: 'timeout',
  INTERNAL: 'internal_server',
  UNAVAILABLE: 'service_unavailable',
});
