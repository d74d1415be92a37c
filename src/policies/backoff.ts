import { RETRY_AFTER_CAP_MS } from '../errors/retry-after.js';

export { RETRY_AFTER_CAP_MS };

const RATE_LIMIT_BASE_MS = 250;
const RATE_LIMIT_CAP_MS = 8_000;
const SERVER_ERROR_BASE_MS = 50;
const SERVER_ERROR_CAP_MS = 1_000;

function jittered(base: number, cap: number, retryNumber: number, random: () => number): number {
  const step = Math.min(cap, base * 2 ** Math.max(0, retryNumber - 1));
  return step * (0.5 + random() * 0.5);
}

/**
 * The wait before retrying a rate limit on the same deployment: exponential (250 ms, 500 ms, 1 s, ...
 * up to 8 s) with jitter (50–100% of the step), never less than the provider's `retry-after` (capped at
 * 60 s) nor the router's `retry_after` minimum. Pure given `random`.
 */
export function rateLimitBackoffMs(
  retryNumber: number,
  upstreamRetryAfterMs: number | undefined,
  minimumMs: number,
  random: () => number,
): number {
  const retryAfter = Math.min(upstreamRetryAfterMs ?? 0, RETRY_AFTER_CAP_MS);
  return Math.max(
    jittered(RATE_LIMIT_BASE_MS, RATE_LIMIT_CAP_MS, retryNumber, random),
    retryAfter,
    minimumMs,
  );
}

/**
 * The wait before retrying a server error or reset on the same deployment: short and jittered (50 ms,
 * 100 ms, 200 ms, ... up to 1 s, each 50–100% of the step), so a struggling deployment is not hit again
 * at once. A retry that lands on another deployment does not wait. Pure given `random`.
 */
export function serverErrorBackoffMs(retryNumber: number, random: () => number): number {
  return jittered(SERVER_ERROR_BASE_MS, SERVER_ERROR_CAP_MS, retryNumber, random);
}
