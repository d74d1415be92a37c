const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const COLON = 58;

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The index past the string that opens at `i` (a `"`), or -1 when it does not end. */
function skipString(text: string, i: number): number {
  for (let from = i + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return -1;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index past the value that starts at `i`, or -1 when it does not end (or is not one). */
function skipValue(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return skipString(text, i);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // a number, true, false or null: up to the next separator
    let end = i;
    while (end < text.length) {
      const c = text.charCodeAt(end);
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break;
      end++;
    }
    return end > i && end < text.length ? end : -1;
  }
  let depth = 0;
  for (let j = i; j < text.length; ) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) {
      j = skipString(text, j);
      if (j === -1) return -1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return j + 1;
    j++;
  }
  return -1;
}

/**
 * The source text of the members named in `names` of the JSON object `text`, at its top level only
 * (a `model` inside `metadata` is not the request's), the last where a name is repeated (as JSON
 * parsers read it, the target's too). Undefined when `text` is not a whole JSON object. Values are
 * skipped, not parsed: nothing is built for the body's messages.
 *
 * @example topLevelMembers('{"metadata":{"model":"a"},"model":"b"}', ['model']) // => Map { model => '"b"' }
 */
export function topLevelMembers(text: string, names: readonly string[]): Map<string, string> | undefined {
  const found = new Map<string, string>();
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) return undefined;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return skipSpace(text, i + 1) === text.length ? found : undefined;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = skipString(text, i);
    if (keyEnd === -1) return undefined;
    const key = decodeString(text.slice(i, keyEnd));
    if (key === undefined) return undefined;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return undefined;
    i = skipSpace(text, i + 1);
    const valueEnd = skipValue(text, i);
    if (valueEnd === -1) return undefined;
    if (names.includes(key)) found.set(key, text.slice(i, valueEnd));
    i = skipSpace(text, valueEnd);
    const next = text.charCodeAt(i);
    if (next === CLOSE_BRACE) return skipSpace(text, i + 1) === text.length ? found : undefined;
    if (next !== COMMA) return undefined;
    i = skipSpace(text, i + 1);
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
