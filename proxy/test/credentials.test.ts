import { describe, expect, it } from 'vitest';
import { presentedKey } from '../src/auth/credentials.js';
import { hashKey, sameDigest, secretDigest } from '../src/auth/virtual-key.js';

describe('presentedKey', () => {
  it('reads Authorization: Bearer', () => {
    expect(presentedKey({ authorization: 'Bearer sk-abc' })).toBe('sk-abc');
  });
  it('reads x-api-key when there is no bearer token', () => {
    expect(presentedKey({ 'x-api-key': 'sk-abc' })).toBe('sk-abc');
  });
  it('finds nothing in a Basic authorization or no header', () => {
    expect(presentedKey({ authorization: 'Basic Zm9vOmJhcg==' })).toBeUndefined();
    expect(presentedKey({})).toBeUndefined();
  });
});

describe('master key comparison', () => {
  it('matches the same secret only', () => {
    const digest = secretDigest('sk-master-1234');
    expect(sameDigest(secretDigest('sk-master-1234'), digest)).toBe(true);
    expect(sameDigest(secretDigest('sk-master-1235'), digest)).toBe(false);
    expect(sameDigest(secretDigest(''), digest)).toBe(false);
  });
  it('hashes a key to the hex of its digest', () => {
    expect(secretDigest('sk-x').toString('hex')).toBe(hashKey('sk-x'));
  });
  it('hashes a key to 64 hex characters', () => {
    expect(hashKey('sk-x')).toMatch(/^[0-9a-f]{64}$/);
  });
});
