/**
 * Rate limits count per wall-clock minute (proxy/src/limits/rate-limits.ts): a test that counts across
 * several calls must not straddle a minute's end, where every count starts again from 0. Waits for
 * the next minute when less than `ms` is left of this one (with the default, one run in thirty, for
 * at most 2 s).
 */
export async function clearOfMinuteEnd(ms = 2_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < ms) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
