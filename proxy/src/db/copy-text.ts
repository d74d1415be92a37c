/**
 * Rows in PostgreSQL COPY's text format, for `Queryable.copyIn`: one line per row, fields separated by
 * tabs, `\N` for null, and a backslash, tab, newline or carriage return in a value escaped with a
 * backslash (a value holding the two characters `\N` stays text). Arrays are array literals, each
 * element quoted.
 */

const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

const escaped = (value: string): string =>
  SPECIAL.test(value) ? value.replace(SPECIAL_ALL, (c) => ESCAPES[c]!) : value;

// inside a quoted array element, `"` and `\` are escaped with a backslash
const element = (value: string): string => `"${value.replace(/["\\]/g, '\\$&')}"`;

/** One field of a line. Strings, finite numbers, booleans, null and arrays of strings. */
function field(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'string') return escaped(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`COPY text cannot hold the number ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (Array.isArray(value)) return escaped(`{${value.map((v) => element(String(v))).join(',')}}`);
  throw new TypeError(`COPY text cannot hold a ${typeof value}`);
}

/** The line (with its newline) of one row's values, in the column order of the COPY. */
export function copyTextLine(values: readonly unknown[]): string {
  let line = field(values[0]);
  for (let i = 1; i < values.length; i++) line += `\t${field(values[i])}`;
  return `${line}\n`;
}
