const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * The pattern of a `duration`, `grace_period` or `budget_duration`: a whole number and a unit, `30s`,
 * `15m`, `12h`, `30d` or `1mo` (calendar months).
 */
export const DURATION_PATTERN = /^(\d+)(s|m|h|d|mo)$/;

/** What the duration format accepts, for error messages. */
export const DURATION_FORMAT = 'a whole number and a unit: `30s`, `15m`, `12h`, `30d` or `1mo`';

function parts(duration: string): { n: number; unit: string } {
  const match = DURATION_PATTERN.exec(duration);
  if (!match) throw new RangeError(`not a duration: ${duration}`);
  return { n: Number(match[1]), unit: match[2]! };
}

/**
 * The time (epoch ms) `duration` after `fromMs`. `mo` counts calendar months in UTC, a day past the
 * end of the target month landing on its last day (31 January + `1mo` is 28 or 29 February). The
 * caller has checked `duration` against DURATION_PATTERN.
 */
export function addDuration(fromMs: number, duration: string): number {
  const { n, unit } = parts(duration);
  if (unit !== 'mo') return fromMs + n * UNIT_MS[unit]!;
  const from = new Date(fromMs);
  const month = from.getUTCMonth() + n;
  const lastDay = new Date(Date.UTC(from.getUTCFullYear(), month + 1, 0)).getUTCDate();
  const to = new Date(fromMs);
  to.setUTCDate(1);
  to.setUTCMonth(month);
  to.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return to.getTime();
}

/** Milliseconds in a `duration` such as `30d` (a month counted from the epoch's January: 31 days). */
export function durationMs(duration: string): number {
  return addDuration(0, duration);
}

/**
 * The first time after `nowMs` reached from `fromMs` by whole steps of `duration`: where a budget
 * period that ended at `fromMs` (and maybe several after it, while nobody called) ends now.
 */
export function nextPeriodEnd(fromMs: number, duration: string, nowMs: number): number {
  const { n, unit } = parts(duration);
  if (n === 0) return nowMs + 1;
  if (unit !== 'mo') {
    const step = n * UNIT_MS[unit]!;
    return fromMs + (Math.floor(Math.max(0, nowMs - fromMs) / step) + 1) * step;
  }
  let end = addDuration(fromMs, duration);
  while (end <= nowMs) end = addDuration(end, duration);
  return end;
}
