import {
  AuthenticationError,
  BadRequestError,
  ContentPolicyViolationError,
  ContextWindowExceededError,
  RateLimitError,
  TimeoutError,
} from '../errors/classes.js';
import type { RouterError } from '../errors/router-error.js';

/** `retry_policy` (spec 10.5): retries per error class, overriding `num_retries` for that class. */
export interface RetryPolicy {
  ContentPolicyViolationErrorRetries?: number | undefined;
  AuthenticationErrorRetries?: number | undefined;
  BadRequestErrorRetries?: number | undefined;
  TimeoutErrorRetries?: number | undefined;
  RateLimitErrorRetries?: number | undefined;
}

/** The `retry_policy` key that governs an error, if any. */
export function policyKeyOf(error: RouterError): keyof RetryPolicy | undefined {
  if (ContentPolicyViolationError.isInstance(error)) return 'ContentPolicyViolationErrorRetries';
  // a prompt that does not fit will not fit on a retry either
  if (ContextWindowExceededError.isInstance(error)) return undefined;
  if (BadRequestError.isInstance(error)) return 'BadRequestErrorRetries';
  if (AuthenticationError.isInstance(error)) return 'AuthenticationErrorRetries';
  if (TimeoutError.isInstance(error)) return 'TimeoutErrorRetries';
  if (RateLimitError.isInstance(error)) return 'RateLimitErrorRetries';
  return undefined;
}

/**
 * How many retries an error class gets: its `retry_policy` entry when set, else `num_retries` for
 * retryable errors and none for the rest (bad request, authentication, context window, content
 * policy).
 */
export function retriesFor(error: RouterError, numRetries: number, policy: RetryPolicy | undefined): number {
  const key = policyKeyOf(error);
  const configured = key ? policy?.[key] : undefined;
  if (configured !== undefined) return configured;
  return error.retryable ? numRetries : 0;
}

/** The most retries any error class can get: the bound handed to p-retry. */
export function maxRetries(numRetries: number, policy: RetryPolicy | undefined): number {
  return Math.max(
    numRetries,
    ...Object.values(policy ?? {}).filter((v): v is number => typeof v === 'number'),
  );
}
