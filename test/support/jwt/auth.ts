// Shared steps of the JWT tests: an auth instance against the test identity provider, a request, and a
// refusal check that also proves the body carries nothing internal.
import {
  type AuthRequest,
  createJwtAuth,
  type JwtAuthDeps,
  type JwtAuthSettings,
  MemoryJwtDirectory,
} from '../../../src/jwt/index.js';
import type { TestIdp } from './idp.js';

export function authFor(
  idp: TestIdp,
  settings: JwtAuthSettings = {},
  deps: JwtAuthDeps = new MemoryJwtDirectory(),
) {
  return createJwtAuth({ public_key_url: idp.discoveryUrl, ...settings }, deps);
}

export function request(
  token: string | undefined,
  path = '/v1/chat/completions',
  extra: { model?: string; headers?: Record<string, string>; method?: string } = {},
): AuthRequest {
  return {
    headers: { ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}), ...extra.headers },
    path,
    model: extra.model,
    method: extra.method ?? 'POST',
  };
}
