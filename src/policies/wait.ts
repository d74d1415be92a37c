import type { CallSignal } from '../shared/call-signal.js';
import { clampTimerMs } from '../shared/timers.js';

/**
 * Waits `ms`, or rejects with the caller's own abort reason (not a generic AbortError) when the
 * signal aborts first.
 */
export function sleep(ms: number, signal: CallSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, clampTimerMs(ms));
    signal?.addEventListener('abort', onAbort);
  });
}
