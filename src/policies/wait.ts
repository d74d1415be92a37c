/** Node's largest timer delay; a longer one fires after 1 ms instead. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay Node's timers honour: at most `MAX_TIMER_MS`, never negative. */
export function clampTimerMs(ms: number): number {
  return ms <= 0 ? 0 : ms > MAX_TIMER_MS ? MAX_TIMER_MS : ms;
}

/**
 * Waits `ms`, or rejects with the caller's own abort reason (not a generic AbortError) when the
 * signal aborts first.
 */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, clampTimerMs(ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
