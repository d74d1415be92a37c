import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topLevelMembers } from '../../src/passthrough/json-members.js';

/** The members found, each name's occurrences as `name=value`. */
const members = (text: string, names = ['model']) => {
  const found = topLevelMembers(Buffer.from(text), names);
  return (
    found && Object.fromEntries([...found].map(([n, list]) => [n, list.map((m) => `${m.name}=${m.value}`)]))
  );
};

describe('topLevelMembers', () => {
  it('takes a member at the top level, not one of the same name inside another value', () => {
    expect(members('{"metadata":{"model":"gpt-4o"},"tools":[{"model":"x"}],"model":"made-up"}')).toEqual({
      model: ['model="made-up"'],
    });
  });

  it('gives every occurrence of a name, in any case, in order', () => {
    expect(members('{"model":"a","messages":[],"MODEL":"b","model":"c"}')).toEqual({
      model: ['model="a"', 'MODEL="b"', 'model="c"'],
    });
  });

  it('reads a name written with escapes, and skips quotes and braces inside strings', () => {
    expect(members('{"text":"a \\" } { \\\\ é 😀","mod\\u0065l" : "m"}')).toEqual({ model: ['model="m"'] });
  });

  it('gives the source of any kind of value', () => {
    expect(
      members('{ "stream" : true , "stream_options" : { "include_usage" : true }, "n": -1.5e3 }', [
        'stream',
        'stream_options',
        'n',
      ]),
    ).toEqual({
      stream: ['stream=true'],
      stream_options: ['stream_options={ "include_usage" : true }'],
      n: ['n=-1.5e3'],
    });
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
        const found = topLevelMembers(Buffer.from(text), names);
        const parsed = JSON.parse(text) as Record<string, unknown>;
        const seen = Object.keys(parsed).filter((k) => names.includes(k.toLowerCase()));
        expect(
          found && [...found.values()].flat().map((m) => [m.name, JSON.parse(m.value.toString())]),
        ).toEqual(expect.arrayContaining(seen.map((k) => [k, parsed[k]])));
        expect(found && [...found.values()].flat()).toHaveLength(seen.length);
      }),
      { seed: 20_261_128, numRuns: 300 },
    );
  });
});
