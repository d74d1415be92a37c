import { ContentPolicyViolationError, RateLimitError, TimeoutError } from '../errors/classes.js';
import type { RouterError } from '../errors/router-error.js';
import type { FailureKind, MinuteCounts } from './failure-window.js';

/** The settings the rules read. */
export interface CooldownPolicy {
  allowedFails: number;
  rateLimitAllowedFails: number | undefined;
  contentPolicyAllowedFails: number | undefined;
}

/** How a failure counts, or undefined when it says nothing about the deployment's health. */
export function failureKind(error: RouterError, policy: CooldownPolicy): FailureKind | undefined {
  if (ContentPolicyViolationError.isInstance(error)) {
    return policy.contentPolicyAllowedFails === undefined ? undefined : 'policy';
  }
  if (RateLimitError.isInstance(error)) return 'rateLimit';
  // other 400s (bad request, context window) are the request's fault: a healthy deployment stays in
  if (error.status === 400 || error.status === 413 || error.status === 422) return undefined;
  return 'fail';
}

/**
 * A timeout the router enforced (`timeout`, `stream_timeout`, `first_token_timeout`, a caller's own
 * `timeout`): no answer came in time, which one slow answer can cause. An upstream that answered 408
 * said itself that it timed out.
 */
export function isEnforcedTimeout(error: RouterError): boolean {
  return TimeoutError.isInstance(error) && error.upstreamStatus === undefined;
}

/**
 * Whether a failure cools its deployment (CONTRACT 5.3, 6.2): at once on 401, 404, an upstream 408 and
 * on 429 (unless `RateLimitErrorAllowedFails` is set, then 429s beyond that number); when the minute's
 * counted failures exceed `allowed_fails` (a timeout the router enforced counts here, never at once:
 * one slow answer must not cool the last healthy deployment); when more than half of at least 5 calls
 * this minute failed.
 */
export function shouldCool(
  error: RouterError,
  kind: FailureKind,
  counts: MinuteCounts,
  policy: CooldownPolicy,
): boolean {
  if (kind === 'policy') return counts.policyFails > (policy.contentPolicyAllowedFails ?? 0);
  if (kind === 'rateLimit') {
    return policy.rateLimitAllowedFails === undefined || counts.rateLimitFails > policy.rateLimitAllowedFails;
  }
  const atOnce = error.status === 401 || error.status === 404 || error.status === 408;
  if (atOnce && !isEnforcedTimeout(error)) return true;
  if (counts.fails > policy.allowedFails) return true;
  const failed = counts.fails + counts.rateLimitFails + counts.policyFails;
  return counts.calls >= 5 && failed / counts.calls > 0.5;
}
