/**
 * Node's largest timer delay (about 24.8 days). A longer one is not an error in Node: it fires after
 * 1 ms, which would turn a generous deadline into an immediate timeout.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A delay Node's timers take as given: at most `MAX_TIMER_MS` (a longer deadline is re-armed when the
 * timer fires), at least 1 ms.
 *
 * @example clampTimerMs(1e12) // => 2147483647
 */
export function clampTimerMs(ms: number): number {
  return ms > MAX_TIMER_MS ? MAX_TIMER_MS : ms >= 1 ? ms : 1;
}
