const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The pattern of a key's `duration`: a whole number and a unit, `30s`, `15m`, `12h` or `30d`. */
export const DURATION_PATTERN = /^(\d+)([smhd])$/;

/** Milliseconds in a `duration` such as `30d`; the caller has checked it against DURATION_PATTERN. */
export function durationMs(duration: string): number {
  const match = DURATION_PATTERN.exec(duration);
  if (!match) throw new RangeError(`not a duration: ${duration}`);
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}
