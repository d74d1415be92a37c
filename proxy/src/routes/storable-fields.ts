import { z } from 'zod';

/**
 * Field types for what the proxy's database can store, so a management request the database would
 * refuse gets a 400 naming the field instead of a 500: text without NUL characters or lone surrogates
 * (Postgres text and jsonb refuse the first; the second is not Unicode and would be stored altered),
 * integers within their column's range, times within the years both engines read, and JSON nested
 * within a bound.
 */

/** The largest value of a Postgres `integer` column (`rpm_limit`, `tpm_limit`). */
export const INT4_MAX = 2_147_483_647;

/**
 * The times a query may name: years 0001 to 9999 (UTC). Postgres' own range is wider (4713 BC to
 * 294276 AD), but the embedded engine sends a Date as ISO text, which Postgres reads only for four-digit
 * years; one range for both engines.
 */
export const EARLIEST_TIME_MS = Date.parse('0001-01-01T00:00:00.000Z');
export const LATEST_TIME_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** How deep free-form JSON (`metadata`, `router_settings`) may nest. */
export const MAX_JSON_DEPTH = 32;

/** Why the database cannot store `text`, or undefined when it can. The text itself is never quoted. */
export function textProblem(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return `contains a NUL character (U+0000) at position ${i + 1}, which cannot be stored`;
    if (c < 0xd800 || c > 0xdfff) continue;
    const paired = c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (!paired) {
      const hex = c.toString(16).toUpperCase();
      return `contains a lone surrogate (U+${hex}) at position ${i + 1}, which is not valid Unicode text`;
    }
    i++;
  }
  return undefined;
}

/** The first thing in a JSON value the database cannot store: where (below the field) and why. */
export function jsonProblem(value: unknown): { path: PropertyKey[]; message: string } | undefined {
  // depth-first without recursion: a value nested 10,000 deep is refused, not a stack overflow
  const pending: Array<{ value: unknown; path: PropertyKey[] }> = [{ value, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: node, path } = next;
    if (typeof node === 'string') {
      const problem = textProblem(node);
      if (problem) return { path, message: problem };
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (path.length >= MAX_JSON_DEPTH)
      return { path: [], message: `nests deeper than ${MAX_JSON_DEPTH} levels` };
    const entries = Object.entries(node);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      const problem = textProblem(key);
      if (problem) return { path, message: `a key ${problem}` };
      pending.push({ value: child, path: [...path, Array.isArray(node) ? i : key] });
    }
  }
  return undefined;
}

/** Text the database can store. */
export const storableText = z.string().check((ctx) => {
  const problem = textProblem(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
});

/** A JSON object (`metadata`, `router_settings`) the database can store. */
export const storableJsonObject = z.record(z.string(), z.unknown()).check((ctx) => {
  const problem = jsonProblem(ctx.value);
  if (problem)
    ctx.issues.push({ code: 'custom', message: problem.message, path: problem.path, input: ctx.value });
});

/** A whole number a Postgres `integer` column holds, at least `min`. */
export const int4 = (min: number) =>
  z
    .number()
    .int()
    .min(min)
    .max(INT4_MAX, { error: `at most ${INT4_MAX} (the largest the database stores here)` });

/** `YYYY-MM-DD` of a UTC time; '' for an invalid one. */
export const dayOf = (ms: number): string =>
  Number.isNaN(ms) ? '' : new Date(ms).toISOString().slice(0, 10);

/**
 * A day (`2026-11-23`) or an ISO time, as a Date: a real calendar day (Date.parse rolls 2026-02-30
 * over to March 2), from 0001-01-01 to 9999-12-31.
 */
export const timeField = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), 'expected a date such as 2026-11-23 or an ISO time')
  .refine(
    (value) =>
      !/^\d{4}-\d{2}-\d{2}/.test(value) ||
      dayOf(Date.parse(`${value.slice(0, 10)}T00:00:00Z`)) === value.slice(0, 10),
    'not a calendar day',
  )
  .refine((value) => {
    const ms = Date.parse(value);
    return Number.isNaN(ms) || (ms >= EARLIEST_TIME_MS && ms <= LATEST_TIME_MS);
  }, 'outside the times the database stores: from 0001-01-01 to 9999-12-31 (UTC)')
  .transform((value) => new Date(value));

/** A UTC day, `2026-11-23`: a real calendar day, from 0001-01-01 to 9999-12-31. */
export const dayField = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a day such as 2026-11-23')
  .refine((value) => dayOf(Date.parse(`${value}T00:00:00Z`)) === value, 'not a calendar day')
  .refine(
    (value) => value >= '0001-01-01',
    'outside the times the database stores: from 0001-01-01 to 9999-12-31 (UTC)',
  );
