// Pure formatting of what the API answers into what a person reads; no DOM here, so tests import it.

/**
 * Dollars with 2 decimals; a non-zero amount under a cent keeps its first two significant digits
 * (`$0.00042`), so a small call's cost does not read as `$0.00`.
 */
export function money(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const abs = Math.abs(value);
  if (abs === 0 || abs >= 0.01) {
    return `${value < 0 ? '-' : ''}$${abs.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  }
  const decimals = Math.min(10, Math.ceil(-Math.log10(abs)) + 1);
  return `${value < 0 ? '-' : ''}$${abs.toFixed(decimals).replace(/0+$/, '')}`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A time as ISO UTC to the second, for a title: `2026-11-23 10:00:00 UTC`. */
export function fullTime(value: string | number | Date): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? String(value)
    : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * A time relative to `now` on one line: `just now`, `5 min ago`, `in 3 h`, `2 d ago`; a week or more
 * away, its UTC day (`2026-11-23`).
 */
export function relativeTime(value: string | number | Date, now = Date.now()): string {
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return String(value);
  const diff = time - now;
  const abs = Math.abs(diff);
  if (abs >= 7 * DAY) return new Date(time).toISOString().slice(0, 10);
  if (abs < MINUTE) return diff >= 0 ? `in ${Math.max(1, Math.round(abs / 1000))} s` : 'just now';
  const [n, unit] =
    abs < HOUR
      ? [Math.round(abs / MINUTE), 'min']
      : abs < DAY
        ? [Math.round(abs / HOUR), 'h']
        : [Math.round(abs / DAY), 'd'];
  return diff >= 0 ? `in ${n} ${unit}` : `${n} ${unit} ago`;
}

/** A call's time, compact: `17:14:03` today (UTC), else `11-25 17:14`. */
export function compactTime(value: string | number | Date, now = Date.now()): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const iso = date.toISOString();
  return iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10)
    ? iso.slice(11, 19)
    : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}

/** At most `max` characters: longer values keep their start and end around an ellipsis. */
export function shorten(value: string, max = 24): string {
  if (value.length <= max) return value;
  const head = Math.ceil((max - 1) * 0.6);
  return `${value.slice(0, head)}…${value.slice(value.length - (max - 1 - head))}`;
}

/** `a, b` or `all` for an empty model list. */
export function modelList(models: readonly string[]): string {
  return models.length === 0 ? 'all models' : models.join(', ');
}

/**
 * Round steps for a value axis from 0 past `max`: about `count` ticks at 1, 2 or 5 times a power of ten.
 */
export function axisTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((m) => m * power >= rough) ?? 10) * power;
  const ticks: number[] = [];
  for (let i = 0; i * step < max + step * 0.999 && ticks.length <= count * 2 + 1; i++) {
    ticks.push(Number((i * step).toPrecision(12)));
  }
  return ticks;
}
