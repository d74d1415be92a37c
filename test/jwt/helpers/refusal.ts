// A refusal check that also proves the error body carries nothing internal.
import { expect } from 'vitest';
import { JwtAuthError, type JwtAuthErrorCode } from '../../../src/jwt/errors.js';

/**
 * Awaits a refusal: a JwtAuthError with this status and code, whose body names no host, no library
 * error code, no stack and no part of the token.
 */
export async function expectRefused(
  promise: Promise<unknown>,
  status: 401 | 403 | 503,
  code: JwtAuthErrorCode,
  token?: string,
): Promise<JwtAuthError> {
  const err = await promise.then(
    () => {
      throw new Error(`expected a ${status} ${code} refusal, but the request was accepted`);
    },
    (e: unknown) => e,
  );
  if (!JwtAuthError.isInstance(err)) throw err;
  expect({ status: err.status, code: err.code, message: err.message }).toMatchObject({ status, code });
  const body = JSON.stringify(err.body);
  expect(body).not.toMatch(/127\.0\.0\.1|localhost|https?:|ERR_|\n\s+at |jose|JWKS|Error:/);
  if (token) {
    for (const part of token.split('.')) if (part.length > 8) expect(body).not.toContain(part.slice(0, 16));
  }
  expect(Object.keys(JSON.parse(JSON.stringify(err)))).not.toContain('cause');
  return err;
}
