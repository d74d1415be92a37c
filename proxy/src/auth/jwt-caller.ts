import type { AuthRequest, CheckedCredential, JwtAuth } from '@svc/router/jwt';
import { ProxyError } from '../http/proxy-error.js';
import type { Caller } from './caller.js';
import { hashKey, VIRTUAL_KEY_PREFIX } from './virtual-key.js';

/** The JWT side of authentication (`general_settings.enable_jwt_auth`). */
export interface JwtGate {
  auth: JwtAuth;
  /**
   * Whether bearer values that are not JWTs (and not shaped like virtual keys) go to the JWT module
   * too: OAuth2 in global mode and UserInfo resolve opaque tokens (CONTRACT 5.6, spec 5.9).
   */
  opaqueTokens: boolean;
}

/** The parts of a request JWT authentication looks at (a fastify request has them). */
export interface JwtRequestFacts {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The request target as received: path and query. */
  url: string;
  method: string;
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Whether a bearer value has the shape of a JWT: three base64url parts. An empty signature still
 * counts, so an unsigned token is refused by the JWT module with its reason instead of being looked up
 * as a key.
 */
export function looksLikeJwt(value: string): boolean {
  return COMPACT_JWS.test(value);
}

/** Whether `presented` is for the JWT module rather than the virtual-key table. */
export function isForJwt(gate: JwtGate, presented: string): boolean {
  if (looksLikeJwt(presented)) return true;
  // a mistyped virtual key is never sent to the identity provider
  return gate.opaqueTokens && !presented.startsWith(VIRTUAL_KEY_PREFIX);
}

/**
 * What the JWT module reads of a request whose bearer value (or `x-api-key`) is `token`; `model` and
 * `checked` for `authenticate` (one object, of one shape, for both of the module's calls).
 */
export function jwtRequest(
  request: JwtRequestFacts,
  token: string,
  model?: string,
  checked?: CheckedCredential,
): AuthRequest {
  return {
    // the token may have come in `x-api-key` (the Anthropic SDK); the JWT module reads the bearer.
    // Copied only then: a copy of the request's headers is a dictionary copied key by key.
    headers: sentAsBearer(request.headers.authorization, token)
      ? request.headers
      : { ...request.headers, authorization: `Bearer ${token}` },
    path: request.url,
    method: request.method,
    model,
    checked,
  };
}

/**
 * Whether `authorization` is exactly `Bearer <token>`: compared in place, without joining the two
 * (a joined string is flattened to be compared: a copy of the token on every call).
 */
function sentAsBearer(authorization: string | string[] | undefined, token: string): boolean {
  return (
    typeof authorization === 'string' &&
    authorization.length === token.length + 7 &&
    authorization.startsWith('Bearer ') &&
    authorization.endsWith(token)
  );
}

/**
 * Authenticates a JWT (or an opaque token UserInfo/OAuth2 resolves) through the JWT module, which also
 * decides route access (it gets the path) and model access (it gets the model). A token mapped to a
 * virtual key proceeds as that key: `asKey` applies the key's own checks (expired, blocked), and its
 * budget, limits and spend apply from then on. JwtAuthError propagates; the error reply gives it its
 * status, and a failed `custom_validate` its fixed body.
 */
export function jwtCaller(
  gate: JwtGate,
  request: JwtRequestFacts,
  token: string,
  model: string | undefined,
  asKey: (keyHash: string) => Caller | Promise<Caller>,
  checked?: CheckedCredential,
): Promise<Caller> {
  return gate.auth
    .authenticate(jwtRequest(request, token, model, checked))
    .then((auth): Caller | Promise<Caller> => {
      if (auth.kind !== 'virtual_key') return { kind: 'jwt', auth };
      const keyHash = mappedKeyHash(auth);
      if (keyHash === undefined) {
        throw new ProxyError(401, 'invalid_api_key', 'The key this token is mapped to does not exist.');
      }
      return asKey(keyHash);
    });
}

/** The mapped key's hash: a database directory gives the hash, a memory one the key itself. */
function mappedKeyHash(auth: { virtual_key?: string; virtual_key_hash?: string }): string | undefined {
  if (auth.virtual_key_hash !== undefined) return auth.virtual_key_hash;
  return auth.virtual_key === undefined ? undefined : hashKey(auth.virtual_key);
}
