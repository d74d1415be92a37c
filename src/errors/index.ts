export * from './classes.js';
export {
  type ErrorContext,
  errorFromNetwork,
  errorFromResponse,
  statusForCode,
  type UpstreamFailure,
} from './map-error.js';
export { redactSecrets } from './redact.js';
export { parseRetryAfterMs } from './retry-after.js';
export { RouterError, type RouterErrorOptions } from './router-error.js';
