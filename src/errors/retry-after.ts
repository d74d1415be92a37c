/** The longest `retry-after` honoured; a provider asking for more is not waited for within one call. */
export const RETRY_AFTER_CAP_MS = 60_000;

type HeaderValue = string | string[] | undefined;

function first(value: HeaderValue): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * How long the provider asked us to wait, from `retry-after-ms` (milliseconds) or `retry-after`
 * (seconds or an HTTP date). Undefined when neither is present or parseable.
 */
export function parseRetryAfterMs(
  headers: Record<string, HeaderValue> | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = first(headers['retry-after-ms']);
  if (ms !== undefined) {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const raw = first(headers['retry-after'])?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
