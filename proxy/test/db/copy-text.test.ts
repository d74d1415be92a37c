import { describe, expect, it } from 'vitest';
import { copyTextLine } from '../../src/db/copy-text.js';

describe('copyTextLine: a row in COPY text format', () => {
  it('separates fields with tabs and ends the line', () => {
    expect(copyTextLine(['a', 1, 2.5, true, false])).toBe('a\t1\t2.5\tt\tf\n');
  });

  it('writes null and undefined as \\N', () => {
    expect(copyTextLine([null, undefined, 'x'])).toBe('\\N\t\\N\tx\n');
  });

  it('escapes backslashes, tabs, line feeds and carriage returns, so a literal \\N stays text', () => {
    expect(copyTextLine(['a\\b\tc\nd\re', '\\N'])).toBe('a\\\\b\\tc\\nd\\re\t\\\\N\n');
  });

  it('writes a list as an array literal, each element quoted with its quotes and backslashes escaped', () => {
    expect(copyTextLine([['plain', 'q"uote', 'back\\slash', 'a,b', '']])).toBe(
      '{"plain","q\\\\"uote","back\\\\\\\\slash","a,b",""}\n',
    );
  });

  it('refuses a number a column cannot read back', () => {
    expect(() => copyTextLine([Number.NaN])).toThrow(/NaN/);
    expect(() => copyTextLine([Number.POSITIVE_INFINITY])).toThrow(/Infinity/);
  });
});
