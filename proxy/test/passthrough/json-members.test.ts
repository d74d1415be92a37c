import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topLevelMembers } from '../../src/passthrough/json-members.js';

const members = (text: string, names = ['model']) => {
  const found = topLevelMembers(text, names);
  return found && Object.fromEntries(found);
};

describe('topLevelMembers', () => {
  it('takes a member at the top level, not one of the same name inside another value', () => {
    expect(members('{"metadata":{"model":"gpt-4o"},"tools":[{"model":"x"}],"model":"made-up"}')).toEqual({
      model: '"made-up"',
    });
  });

  it('takes the last of a repeated member, as JSON parsers do', () => {
    expect(members('{"model":"gpt-4o","messages":[],"model":"made-up"}')).toEqual({ model: '"made-up"' });
  });

  it('reads a name written with escapes, and skips quotes and braces inside strings', () => {
    expect(members('{"text":"a \\" } { \\\\","mod\\u0065l" : "m"}')).toEqual({ model: '"m"' });
  });

  it('gives the source of any kind of value', () => {
    expect(
      members('{ "stream" : true , "stream_options" : { "include_usage" : true }, "n": -1.5e3 }', [
        'stream',
        'stream_options',
        'n',
      ]),
    ).toEqual({ stream: 'true', stream_options: '{ "include_usage" : true }', n: '-1.5e3' });
  });

  it('finds nothing in what is not one whole JSON object', () => {
    for (const text of [
      '[]',
      '"model"',
      '{"model":"a"',
      '{"model":"a"} x',
      '{"model" "a"}',
      '{model:"a"}',
      '',
    ])
      expect(members(text)).toBeUndefined();
  });

  it('agrees with JSON.parse on any object, however it is spaced', () => {
    const names = ['model', 'stream', 'stream_options'];
    const key = fc.oneof(fc.constantFrom(...names), fc.string());
    const body = fc.dictionary(key, fc.jsonValue(), { maxKeys: 8 });
    fc.assert(
      fc.property(body, fc.constantFrom(0, 2, '\t'), (object, space) => {
        const text = JSON.stringify(object, null, space);
        const found = topLevelMembers(text, names);
        const parsed = JSON.parse(text) as Record<string, unknown>;
        const expected = Object.fromEntries(
          names.filter((n) => Object.hasOwn(parsed, n)).map((n) => [n, parsed[n]]),
        );
        expect(found && Object.fromEntries([...found].map(([n, v]) => [n, JSON.parse(v)]))).toEqual(expected);
      }),
      { seed: 20_261_128, numRuns: 300 },
    );
  });
});
