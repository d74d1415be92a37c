export * from './classes.js';
export {
  isRouterErrorCode,
  type ProviderErrorCodes,
  ROUTER_ERROR_CODES,
  type RouterErrorCode,
} from './codes.js';
export {
  type ErrorContext,
  errorFromNetwork,
  errorFromResponse,
  statusForCode,
  type UpstreamFailure,
} from './map-error.js';
export { MissingPeerError } from './missing-peer.js';
export { redactSecrets } from './redact.js';
export { parseRetryAfterMs } from './retry-after.js';
export { RouterError, type RouterErrorOptions } from './router-error.js';
