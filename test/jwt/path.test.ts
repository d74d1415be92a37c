import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { normalizePath } from '../../src/jwt/path.js';

describe('normalizePath: what a route check compares', () => {
  test.each([
    ['/v1/chat/completions', '/v1/chat/completions'],
    ['/v1/chat/completions?model=x', '/v1/chat/completions'],
    ['/v1/chat/completions#frag', '/v1/chat/completions'],
    ['//v1//chat///completions', '/v1/chat/completions'],
    ['/key/generate/', '/key/generate'],
    ['/', '/'],
    ['/v1/models/gpt%2D4o', '/v1/models/gpt-4o'],
    ['/key/info?next=/../../admin', '/key/info'],
    ['/.well-known/openid-configuration', '/.well-known/openid-configuration'],
    ['/v1/models/gpt-4o..mini', '/v1/models/gpt-4o..mini'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizePath(input)).toBe(expected);
  });

  test.each([
    ['dot-dot segment', '/v1/models/../../key/generate'],
    ['dot segment', '/./key/generate'],
    ['encoded slash', '/v1/models/..%2fkey%2Fgenerate'],
    ['encoded dots', '/%2e%2e/key/generate'],
    ['double encoding', '/v1/models/%252e%252e/key'],
    ['encoded backslash', '/anthropic%5c..%5ckey'],
    ['raw backslash', '/anthropic\\..\\key/generate'],
    ['encoded NUL', '/key/info%00.json'],
    ['control character', '/key/info\n'],
    ['space', '/key/ info'],
    ['absolute-form target', 'http://admin.internal/key/generate'],
    ['asterisk-form target', '*'],
    ['relative path', 'key/generate'],
    ['invalid escape', '/v1/%zz'],
    ['empty', ''],
  ])('refuses a %s', (_name, input) => {
    expect(normalizePath(input)).toBeUndefined();
  });

  test('what it returns is normal: no empty, dot or trailing segment, and normalising it again changes nothing', () => {
    const segment = fc.constantFrom('', '.', '..', 'v1', 'chat', '.x', 'a.b', '%2D', 'key%20info', '..x');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), fc.boolean(), (segments, trailing) => {
        const path = normalizePath(`/${segments.join('/')}${trailing ? '/' : ''}`);
        if (path === undefined) return;
        expect(path.startsWith('/')).toBe(true);
        expect(path === '/' || !path.endsWith('/')).toBe(true);
        expect(
          path
            .slice(1)
            .split('/')
            .filter((s) => s === '' || s === '.' || s === '..'),
        ).toEqual(path === '/' ? [''] : []);
        expect(normalizePath(path)).toBe(path);
      }),
    );
  });
});
