import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from '../../src/http/json-syntax-error.js';

// Each malformed text against JSON.parse too: the locator must agree that it is not JSON.
describe('findJsonSyntaxError', () => {
  const located = (text: string) => {
    expect(() => JSON.parse(text)).toThrow();
    return findJsonSyntaxError(text);
  };

  it('names the line and column of an unexpected character', () => {
    expect(located('{\n  "a": 1,\n  "b": }')).toEqual({
      offset: 19,
      line: 3,
      column: 8,
      problem: 'unexpected `}`',
    });
  });

  it('points past the end of a body that stops too soon', () => {
    expect(located('{"model": ')).toMatchObject({
      offset: 10,
      line: 1,
      column: 11,
      problem: 'unexpected end of the body',
    });
  });

  it('names a missing comma or closing bracket', () => {
    expect(located('{"a": 1 "b": 2}')).toMatchObject({
      column: 9,
      problem: 'expected `,` or `}`, found `"`',
    });
    expect(located('[1 2]')).toMatchObject({ column: 4, problem: 'expected `,` or `]`, found `2`' });
  });

  it('names a property name without double quotes and a missing colon', () => {
    expect(located("{'a': 1}")).toMatchObject({
      column: 2,
      problem: "expected a property name in double quotes, found `'`",
    });
    expect(located('{"a" 1}')).toMatchObject({
      column: 6,
      problem: 'expected `:` after a property name, found `1`',
    });
  });

  it('refuses a trailing comma where a value must follow', () => {
    expect(located('[1,]')).toMatchObject({ column: 4, problem: 'unexpected `]`' });
    expect(located('{"a":1,}')).toMatchObject({
      column: 8,
      problem: 'expected a property name in double quotes, found `}`',
    });
  });

  it('finds errors inside strings: control characters, bad escapes, no closing quote', () => {
    expect(located('{"a":"x\u0001"}')).toMatchObject({
      column: 8,
      problem: 'unescaped control character U+0001 in a string',
    });
    expect(located('["\\x"]')).toMatchObject({ column: 3, problem: 'invalid escape `\\x`' });
    expect(located('["\\u12"]')).toMatchObject({ column: 3, problem: 'invalid escape `\\u`' });
    expect(located('{"a":"sk-secret')).toMatchObject({ column: 16, problem: 'unterminated string' });
  });

  it('names text after the value and words that are not JSON', () => {
    expect(located('{"a":1}x')).toMatchObject({ column: 8, problem: 'unexpected `x` after the JSON value' });
    expect(located('{"a": nul}')).toMatchObject({ column: 7, problem: 'unexpected `n`' });
    expect(located('{"a": 01}')).toMatchObject({ column: 8, problem: 'expected `,` or `}`, found `1`' });
    expect(located('-')).toMatchObject({ column: 1, problem: 'unexpected `-`' });
  });

  it('finds nothing wrong in valid JSON, however deep', () => {
    const valid = ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "\\u00e9\\n"]} ', '"x"', '0'];
    for (const text of valid) expect(findJsonSyntaxError(text)).toBeUndefined();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(findJsonSyntaxError(deep)).toBeUndefined();
    expect(findJsonSyntaxError(`${deep}]`)).toMatchObject({ offset: 200_000 });
  });
});
