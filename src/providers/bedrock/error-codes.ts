import type { ProviderErrorCodes } from '../../errors/codes.js';

/**
 * Bedrock's exception types (the `x-amzn-errortype` header or `__type` of an error answer; stream
 * exception frames spell them in lower camel case) and what each means. AWS answers bad or expired
 * credentials with 403 and a failed model with 424: the type, not the status, says what happened.
 */
export const BEDROCK_ERROR_CODES: ProviderErrorCodes = Object.freeze({
  ValidationException: 'bad_request',
  validationException: 'bad_request',
  UnrecognizedClientException: 'authentication',
  InvalidSignatureException: 'authentication',
  IncompleteSignatureException: 'authentication',
  ExpiredTokenException: 'authentication',
  AccessDeniedException: 'permission_denied',
  ResourceNotFoundException: 'not_found',
  ThrottlingException: 'rate_limit',
  throttlingException: 'rate_limit',
  TooManyRequestsException: 'rate_limit',
  ServiceQuotaExceededException: 'rate_limit',
  ModelTimeoutException: 'timeout',
  modelTimeoutException: 'timeout',
  ModelErrorException: 'internal_server',
  ModelStreamErrorException: 'internal_server',
  modelStreamErrorException: 'internal_server',
  InternalServerException: 'internal_server',
  internalServerException: 'internal_server',
  ServiceUnavailableException: 'service_unavailable',
  serviceUnavailableException: 'service_unavailable',
  ModelNotReadyException: 'service_unavailable',
});
