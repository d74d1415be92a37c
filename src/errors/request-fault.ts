import { BadRequestError } from './classes.js';
import { RouterError } from './router-error.js';

const FAULT = Symbol.for('@svc/router.requestFault');

/**
 * A request the router cannot even send (a cycle, a BigInt, nesting too deep, a `toJSON` that throws):
 * the request's own fault. It fails the call at once with a BadRequestError, is never retried, never
 * falls back, and never counts against a deployment.
 */
export function requestFault(what: string, cause: unknown): BadRequestError {
  const reason =
    cause instanceof RangeError
      ? 'it is nested too deeply'
      : cause instanceof Error
        ? cause.message
        : String(cause);
  const error = new BadRequestError(`Invalid request: ${what} cannot be serialised as JSON: ${reason}`, {
    cause,
  });
  Object.defineProperty(error, FAULT, { value: true });
  return error;
}

/** Whether an error is the request's own fault in the sense of `requestFault`. */
export function isRequestFault(error: unknown): boolean {
  return RouterError.isInstance(error) && FAULT in error;
}
