import { describe, expect, test } from 'vitest';
import { quoted } from '../../src/jwt/errors.js';
import { JWT_AUTH_ERROR_CODES, JwtAuthError } from '../../src/jwt/index.js';

describe('JwtAuthError', () => {
  test('carries the status of its code, an OpenAI-style type and a body to send', () => {
    const err = new JwtAuthError(
      'team_not_in_token',
      "Team `x` (x-svc-team-id) is not one of the token's teams",
    );
    expect([err.status, err.type, err.body]).toEqual([
      403,
      'permission_denied',
      { error: { message: err.message, type: 'permission_denied', code: 'team_not_in_token' } },
    ]);
  });

  test('a failed custom_validate has the body the spec fixes', () => {
    expect(new JwtAuthError('custom_validate_failed', 'Invalid JWT token').body).toEqual({
      error: 'Invalid JWT token',
    });
  });

  test('every code is 401, 403 or 503', () => {
    expect(new Set(Object.values(JWT_AUTH_ERROR_CODES))).toEqual(new Set([401, 403, 503]));
  });

  test('the cause is kept for logs but left out of JSON', () => {
    const err = new JwtAuthError('auth_store_unavailable', 'The authentication store is unavailable', {
      cause: new Error('password authentication failed'),
    });
    expect((err.cause as Error).message).toBe('password authentication failed');
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      name: 'JwtAuthError',
      status: 503,
      code: 'auth_store_unavailable',
      type: 'service_unavailable',
    });
  });

  test('isInstance holds for an error of another copy of the package (same marker)', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('@svc/router.jwt-auth-error')]: true });
    expect([JwtAuthError.isInstance(foreign), JwtAuthError.isInstance(new Error('x'))]).toEqual([
      true,
      false,
    ]);
  });
});

describe('quoted: token values in messages', () => {
  test('control characters and backticks are removed, so a claim cannot forge log lines', () => {
    expect(quoted('evil\n[INFO] admin granted`')).toBe('`evil[INFO] admin granted`');
  });

  test('long values are cut to 64 characters', () => {
    expect(quoted('a'.repeat(100))).toBe(`\`${'a'.repeat(61)}...\``);
  });
});
