import { describe, expect, it } from 'vitest';
import { redactSecrets, secretForms } from '../../src/errors/redact.js';

const SECRET = 'Zx8Q~secret value/with "quotes"';

describe('redactSecrets', () => {
  it.each([
    ['as is', SECRET],
    ['URL-encoded', encodeURIComponent(SECRET)],
    ['form-encoded (~ as %7E, space as +)', new URLSearchParams({ s: SECRET }).toString().slice(2)],
    ['form-encoded with lower-case hex', 'Zx8Q%7esecret+value%2fwith+%22quotes%22'],
    ['JSON-escaped', JSON.stringify(SECRET).slice(1, -1)],
    ['JSON-escaped with \\/', JSON.stringify(SECRET).slice(1, -1).replaceAll('/', '\\/')],
    ['base64', Buffer.from(SECRET).toString('base64')],
    ['base64url', Buffer.from(SECRET).toString('base64url')],
  ])('removes a secret echoed %s', (_how, echoed) => {
    expect(redactSecrets(`rejected: ${echoed}.`, [SECRET])).toBe('rejected: ****.');
  });

  it('lists the form-encoded form with ~ as %7E', () => {
    expect(secretForms('a~b c')).toEqual(expect.arrayContaining(['a~b c', 'a~b%20c', 'a%7Eb+c']));
  });

  it('replaces a longer secret whole when it contains a shorter one', () => {
    expect(redactSecrets('key abcdef-123456 here', ['abcdef', 'abcdef-123456'])).toBe('key **** here');
  });

  it('leaves secrets shorter than 4 characters alone (they would match ordinary words)', () => {
    expect(redactSecrets('the answer', ['the'])).toBe('the answer');
  });
});
