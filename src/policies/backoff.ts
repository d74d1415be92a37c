const BASE_MS = 250;
const CAP_MS = 8_000;

/**
 * The wait before retrying after a rate limit: exponential (250 ms, 500 ms, 1 s, ... up to 8 s) with
 * jitter (50–100% of the step), never less than the provider's `retry-after` nor the router's
 * `retry_after` minimum. Pure given `random`.
 */
export function rateLimitBackoffMs(
  retryNumber: number,
  upstreamRetryAfterMs: number | undefined,
  minimumMs: number,
  random: () => number,
): number {
  const step = Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, retryNumber - 1));
  const jittered = step * (0.5 + random() * 0.5);
  return Math.max(jittered, upstreamRetryAfterMs ?? 0, minimumMs);
}
