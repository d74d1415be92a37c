import { describe, expect, test } from 'vitest';
import { asList, asString, claimReader, fieldPath, scopesOf } from '../../src/jwt/claims.js';

describe('field settings (dot notation, spec 5.2)', () => {
  test('a dot walks into nested claims', () => {
    expect(claimReader('user.sub')({ user: { sub: 'alice' } })).toBe('alice');
  });

  test('resource_access.<client>.roles reads Keycloak client roles', () => {
    const claims = { resource_access: { gateway: { roles: ['ops'] } } };
    expect(claimReader('resource_access.gateway.roles')(claims)).toEqual(['ops']);
  });

  test('a backslash-escaped dot is part of the key', () => {
    expect(fieldPath('https://example\\.com/roles')).toEqual(['https://example.com/roles']);
    expect(claimReader('ns.my\\.client.roles')({ ns: { 'my.client': { roles: ['a'] } } })).toEqual(['a']);
  });

  test('a missing step, a list or a scalar on the way gives undefined, never a crash', () => {
    const read = claimReader('a.b.c');
    expect([read({}), read({ a: 'x' }), read({ a: [{ b: { c: 1 } }] }), read({ a: { b: null } })]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  test('inherited properties are never read', () => {
    expect(claimReader('constructor')({})).toBeUndefined();
    expect(claimReader('toString')({})).toBeUndefined();
    expect(claimReader('__proto__')({})).toBeUndefined();
  });
});

describe('claim types', () => {
  test('a list where one value is expected gives its first string', () => {
    expect(asString(['team-a', 'team-b'])).toBe('team-a');
    expect(asString([{}, 7, 'x'])).toBe('7');
  });

  test('numbers read as strings; objects, booleans, empty strings and empty lists as absent', () => {
    expect([asString(42), asString({}), asString(true), asString(''), asString([])]).toEqual([
      '42',
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  test('a string where a list is expected is a one-entry list, split on whitespace only when asked', () => {
    expect(asList('Engineering Team')).toEqual(['Engineering Team']);
    expect(asList('admin  ops\tdev', true)).toEqual(['admin', 'ops', 'dev']);
  });

  test('a list keeps its strings and numbers and drops the rest', () => {
    expect(asList(['a', 1, null, { x: 1 }, ['b']])).toEqual(['a', '1']);
  });

  test('scopes are read from a list or a space-separated string (spec 5.3.3)', () => {
    expect(scopesOf({ scope: ['a', 'b'] })).toEqual(['a', 'b']);
    expect(scopesOf({ scope: 'a b' })).toEqual(['a', 'b']);
  });

  test('scp is read when scope is absent (Okta lists, Entra strings)', () => {
    expect(scopesOf({ scp: ['okta.read'] })).toEqual(['okta.read']);
    expect(scopesOf({ scp: 'user.read mail.read' })).toEqual(['user.read', 'mail.read']);
  });
});
