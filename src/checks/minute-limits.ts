import type { Deployment, Endpoint, MinuteUsage } from '../types/index.js';

/** Milliseconds in the window `rpm` and `tpm` are counted over. */
export const MINUTE_MS = 60_000;

/** The wall-clock minute a time falls in: the window usage counters are keyed by. */
export function minuteOf(now: number): number {
  return Math.floor(now / MINUTE_MS);
}

/** Whole seconds until the next wall-clock minute starts (at least 1): when per-minute limits reset. */
export function secondsToNextMinute(now: number): number {
  return Math.max(1, Math.ceil(((minuteOf(now) + 1) * MINUTE_MS - now) / 1000));
}

/**
 * Whether a deployment may take one more request this minute: fewer requests than its `rpm` and fewer
 * tokens than its `tpm`. A limit it does not set never stops it, and unknown usage (the store could not
 * be read) counts as none: a deployment is only ever skipped on evidence. Pure.
 */
export function underLimits(deployment: Deployment, usage: MinuteUsage | undefined): boolean {
  if (usage === undefined) return true;
  const { rpm, tpm } = deployment.params;
  return (rpm === undefined || usage.rpm < rpm) && (tpm === undefined || usage.tpm < tpm);
}

/** Whether any of these endpoints sets `rpm` or `tpm`: otherwise there is no per-minute limit to check. */
export function hasMinuteLimits(endpoints: readonly Endpoint[]): boolean {
  return endpoints.some(
    (e) => e.deployment.params.rpm !== undefined || e.deployment.params.tpm !== undefined,
  );
}
