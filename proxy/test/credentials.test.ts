import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { presentedKey } from '../src/auth/credentials.js';
import { hashKey, sameDigest } from '../src/auth/virtual-key.js';

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
    const digest = hashKey('sk-master-1234');
    expect(sameDigest(hashKey('sk-master-1234'), digest)).toBe(true);
    expect(sameDigest(hashKey('sk-master-1235'), digest)).toBe(false);
    expect(sameDigest(hashKey(''), digest)).toBe(false);
  });
  it('tells digests apart that differ only in their last character', () => {
    const digest = hashKey('sk-master-1234');
    const last = digest.at(-1) === '0' ? '1' : '0';
    expect(sameDigest(digest.slice(0, -1) + last, digest)).toBe(false);
  });
  it('never matches a value of another length', () => {
    expect(sameDigest(hashKey('sk-x').slice(0, 63), hashKey('sk-x'))).toBe(false);
  });
  it('hashes a key to the hex of its SHA-256', () => {
    expect(hashKey('sk-x')).toBe(createHash('sha256').update('sk-x').digest('hex'));
  });
  it('hashes a key to 64 hex characters', () => {
    expect(hashKey('sk-x')).toMatch(/^[0-9a-f]{64}$/);
  });
});
