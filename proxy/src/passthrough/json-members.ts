const QUOTE = 34;
const BACKSLASH = 92;
export const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const COLON = 58;

/** Keys longer than this (as JSON text) are not decoded: no name looked for is that long. */
const MAX_NAME_BYTES = 64;

/** JSON's white space. */
export const isSpace = (c: number | undefined): boolean => c === 32 || c === 9 || c === 10 || c === 13;

function skipSpace(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && isSpace(bytes[i])) i++;
  return i;
}

/** The index past the string that opens at `i` (a `"`), or -1 when it does not end. */
function skipString(bytes: Buffer, i: number): number {
  for (let from = i + 1; ; ) {
    const quote = bytes.indexOf(QUOTE, from);
    if (quote === -1) return -1;
    let slashes = 0;
    while (bytes[quote - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index past the value that starts at `i`, or -1 when it does not end (or is not one). */
function skipValue(bytes: Buffer, i: number): number {
  const first = bytes[i];
  if (first === QUOTE) return skipString(bytes, i);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // a number, true, false or null: up to the next separator
    let end = i;
    while (end < bytes.length) {
      const c = bytes[end];
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break;
      end++;
    }
    return end > i && end < bytes.length ? end : -1;
  }
  let depth = 0;
  for (let j = i; j < bytes.length; ) {
    const c = bytes[j];
    if (c === QUOTE) {
      j = skipString(bytes, j);
      if (j === -1) return -1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return j + 1;
    j++;
  }
  return -1;
}

/** One top-level member found: its name as written, and its value's source bytes (a view, not a copy). */
export interface Member {
  name: string;
  value: Buffer;
}

/**
 * The members of the JSON object in `bytes` (UTF-8) whose names are in `names`, matched without
 * regard to case (Go's encoding/json matches names so), at the top level only (a `model` inside
 * `metadata` is not the request's), each occurrence in order: the caller decides what a repeated
 * one means. Undefined when `bytes` is not one whole JSON object. Values are skipped, not parsed:
 * nothing is built for the body's messages.
 *
 * @example topLevelMembers(Buffer.from('{"metadata":{"model":"a"},"model":"b"}'), ['model'])
 * // => Map { 'model' => [{ name: 'model', value: <Buffer '"b"'> }] }
 */
export function topLevelMembers(bytes: Buffer, names: readonly string[]): Map<string, Member[]> | undefined {
  const found = new Map<string, Member[]>();
  let i = skipSpace(bytes, 0);
  if (bytes[i] !== OPEN_BRACE) return undefined;
  i = skipSpace(bytes, i + 1);
  if (bytes[i] === CLOSE_BRACE) return skipSpace(bytes, i + 1) === bytes.length ? found : undefined;
  for (;;) {
    if (bytes[i] !== QUOTE) return undefined;
    const nameEnd = skipString(bytes, i);
    if (nameEnd === -1) return undefined;
    const name = nameEnd - i <= MAX_NAME_BYTES ? decodeString(bytes.toString('utf8', i, nameEnd)) : '';
    if (name === undefined) return undefined;
    i = skipSpace(bytes, nameEnd);
    if (bytes[i] !== COLON) return undefined;
    i = skipSpace(bytes, i + 1);
    const valueEnd = skipValue(bytes, i);
    if (valueEnd === -1) return undefined;
    const wanted = name.length <= MAX_NAME_BYTES ? name.toLowerCase() : '';
    if (names.includes(wanted)) {
      const member = { name, value: bytes.subarray(i, valueEnd) };
      const list = found.get(wanted);
      if (list) list.push(member);
      else found.set(wanted, [member]);
    }
    i = skipSpace(bytes, valueEnd);
    const next = bytes[i];
    if (next === CLOSE_BRACE) return skipSpace(bytes, i + 1) === bytes.length ? found : undefined;
    if (next !== COMMA) return undefined;
    i = skipSpace(bytes, i + 1);
  }
}

/** A JSON string token's value (escapes decoded), or undefined when it is not a valid one. */
export function decodeString(token: string): string | undefined {
  try {
    const value: unknown = JSON.parse(token);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
