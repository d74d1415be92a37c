/** Where a text stops being JSON, and why, for a message the sender can act on. */
export interface JsonSyntaxError {
  /** The offending character's index in the text (the text's length when it ended too soon). */
  offset: number;
  /** 1-based line and column of `offset`. */
  line: number;
  column: number;
  /** What is wrong there: `unexpected \`}\``, `unterminated string`... */
  problem: string;
}

// What may come next. A value; a value or `]` (just after `[`); a property name; a name or `}` (just
// after `{`); the `:` after a name; `,` or the closing bracket; nothing (the value is complete).
const VALUE = 0;
const VALUE_OR_CLOSE = 1;
const NAME = 2;
const NAME_OR_CLOSE = 3;
const COLON = 4;
const COMMA_OR_CLOSE = 5;
const END = 6;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
/** What may follow a backslash in a string (besides `u` and four hex digits). */
const ESCAPES = '"\\/bfnrt';

/** A scan that stopped: where, and why. */
class Stop {
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {}
}

/** A character as a message shows it: itself in backticks, or its code point when it is not printable. */
function shown(text: string, offset: number): string {
  const code = text.codePointAt(offset) ?? 0;
  if (code < 0x20 || code === 0x7f) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `\`${String.fromCodePoint(code)}\``;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** The end of the string whose opening quote is at `start`, or where it breaks. */
function scanString(text: string, start: number): number | Stop {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return new Stop(i, `unescaped control character ${shown(text, i)} in a string`);
    if (c !== BACKSLASH) continue;
    const next = text.charCodeAt(i + 1);
    if (next === 0x75) {
      for (let h = i + 2; h < i + 6; h++)
        if (!isHex(text.charCodeAt(h))) return new Stop(i, 'invalid escape `\\u`');
      i += 5;
    } else if (ESCAPES.includes(text[i + 1] ?? '')) i++;
    else if (i + 1 < text.length) return new Stop(i, `invalid escape \`\\${text[i + 1]}\``);
  }
  return new Stop(text.length, 'unterminated string');
}

/** The end of the digits from `i`, which must hold at least one; -1 when none is there. */
function digits(text: string, i: number): number {
  let j = i;
  while (isDigit(text.charCodeAt(j))) j++;
  return j > i ? j : -1;
}

/** The end of the number, `true`, `false` or `null` at `start`, or -1 when none is there. */
function scanScalar(text: string, start: number): number {
  for (const word of ['true', 'false', 'null']) if (text.startsWith(word, start)) return start + word.length;
  let i = text.charCodeAt(start) === 0x2d ? start + 1 : start;
  i = text.charCodeAt(i) === 0x30 ? i + 1 : digits(text, i);
  if (i < 0) return -1;
  if (text.charCodeAt(i) === 0x2e) {
    i = digits(text, i + 1);
    if (i < 0) return -1;
  }
  if ((text.charCodeAt(i) | 0x20) === 0x65) {
    const sign = text.charCodeAt(i + 1);
    i = digits(text, sign === 0x2b || sign === 0x2d ? i + 2 : i + 1);
  }
  return i;
}

/**
 * The first place `text` breaks the JSON grammar (RFC 8259), or undefined when it is valid JSON. Runs
 * only after a parse failed, to say where: one pass, no recursion however deep the nesting.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const stop = scan(text);
  return stop && { offset: stop.offset, ...lineAndColumn(text, stop.offset), problem: stop.problem };
}

function scan(text: string): Stop | undefined {
  // the open brackets, innermost last, as char codes
  const open: number[] = [];
  const afterValue = () => (open.length > 0 ? COMMA_OR_CLOSE : END);
  let expect = VALUE;
  for (let i = 0; ; ) {
    while (isSpace(text.charCodeAt(i))) i++;
    if (i >= text.length) return expect === END ? undefined : new Stop(i, 'unexpected end of the body');
    const c = text.charCodeAt(i);
    const closer = open[open.length - 1] === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
    let end = i + 1;
    if (expect === END) return new Stop(i, `unexpected ${shown(text, i)} after the JSON value`);
    if (expect === COLON) {
      if (c !== 0x3a) return new Stop(i, `expected \`:\` after a property name, found ${shown(text, i)}`);
      expect = VALUE;
    } else if (expect === COMMA_OR_CLOSE) {
      if (c !== 0x2c && c !== closer) {
        return new Stop(i, `expected \`,\` or \`${String.fromCharCode(closer)}\`, found ${shown(text, i)}`);
      }
      if (c === closer) open.pop();
      expect = c === closer ? afterValue() : closer === CLOSE_BRACE ? NAME : VALUE;
    } else if (c === closer && (expect === VALUE_OR_CLOSE || expect === NAME_OR_CLOSE)) {
      open.pop();
      expect = afterValue();
    } else if (expect === NAME || expect === NAME_OR_CLOSE) {
      if (c !== QUOTE)
        return new Stop(i, `expected a property name in double quotes, found ${shown(text, i)}`);
      const scanned = scanString(text, i);
      if (scanned instanceof Stop) return scanned;
      end = scanned;
      expect = COLON;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      open.push(c);
      expect = c === OPEN_BRACE ? NAME_OR_CLOSE : VALUE_OR_CLOSE;
    } else {
      const scanned = c === QUOTE ? scanString(text, i) : scanScalar(text, i);
      if (scanned instanceof Stop) return scanned;
      if (scanned < 0) return new Stop(i, `unexpected ${shown(text, i)}`);
      end = scanned;
      expect = afterValue();
    }
    i = end;
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
