import {
  type CryptoKey,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
  jwtVerify,
} from 'jose';
import { JwtAuthError, quoted } from './errors.js';
import { IdentityProviderError } from './http-json.js';
import type { KeySets } from './key-sets.js';

/**
 * The signature algorithms a token may use: asymmetric only. `none` and the HMAC family never verify
 * (an HS256 token "signed" with a public key as its secret is the classic key-confusion attack).
 */
export const ALLOWED_ALGORITHMS: readonly string[] = Object.freeze([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]);

/** Largest bearer value looked at (16 KiB): a token of groups is a few KiB, a 1 MB "token" is an attack. */
export const MAX_TOKEN_LENGTH = 16 * 1024;

const ALLOWED_TYPES = new Set(['jwt', 'at+jwt']);

/** Whether a bearer value has the shape of a compact JWS (three base64url parts, a JSON header). */
export function looksLikeJwt(token: string): boolean {
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token)) return false;
  try {
    return typeof decodeProtectedHeader(token).alg === 'string';
  } catch {
    return false;
  }
}

/** The payload of a token, not verified: only to choose a key set or an OAuth2 route, never to trust. */
export function unverifiedClaims(token: string): JWTPayload | undefined {
  try {
    return decodeJwt(token);
  } catch {
    return undefined;
  }
}

export interface VerifyOptions {
  audiences: readonly string[] | undefined;
  clockToleranceSeconds: number;
}

const invalid = (message: string, cause?: unknown) => new JwtAuthError('invalid_token', message, { cause });

function checkHeader(token: string): void {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch (cause) {
    throw invalid('The bearer token is not a valid JWT', cause);
  }
  const { alg, typ } = header;
  if (typeof alg !== 'string' || !ALLOWED_ALGORITHMS.includes(alg)) {
    throw new JwtAuthError(
      'algorithm_not_allowed',
      `Token algorithm ${quoted(String(alg))} is not allowed; expected an asymmetric algorithm (RS*, PS*, ES*, EdDSA)`,
    );
  }
  if (typ !== undefined) {
    const t = typeof typ === 'string' ? typ.toLowerCase().replace(/^application\//, '') : '';
    if (!ALLOWED_TYPES.has(t)) {
      throw new JwtAuthError(
        'token_type_not_allowed',
        `Token type ${quoted(String(typ))} is not accepted; expected JWT or at+jwt`,
      );
    }
  }
}

/** Verifies with one key set; a key set offering several keys for a token without `kid` tries each. */
async function verifyWith(
  token: string,
  getKey: JWTVerifyGetKey,
  options: JWTVerifyOptions,
): Promise<JWTPayload> {
  try {
    return (await jwtVerify(token, getKey, options)).payload;
  } catch (err) {
    if (!(err instanceof errors.JWKSMultipleMatchingKeys)) throw err;
    for await (const key of err as errors.JWKSMultipleMatchingKeys & AsyncIterable<CryptoKey>) {
      try {
        return (await jwtVerify(token, key, options)).payload;
      } catch (inner) {
        if (!(inner instanceof errors.JWSSignatureVerificationFailed)) throw inner;
      }
    }
    throw new errors.JWSSignatureVerificationFailed();
  }
}

function translate(err: unknown): JwtAuthError {
  if (err instanceof JwtAuthError) return err;
  if (err instanceof IdentityProviderError || err instanceof errors.JWKSTimeout) {
    return new JwtAuthError(
      'identity_provider_unavailable',
      "The identity provider's signing keys could not be fetched; try again later",
      { cause: err },
    );
  }
  if (err instanceof errors.JOSEError && /Extension Header Parameter|"crit"/.test(err.message)) {
    return invalid('Token has a critical header extension that is not understood (crit)', err);
  }
  if (err instanceof errors.JWTExpired)
    return new JwtAuthError('token_expired', 'Token has expired', { cause: err });
  if (err instanceof errors.JWTClaimValidationFailed) {
    const { claim, reason } = err;
    if (reason === 'check_failed' && claim === 'nbf') {
      return new JwtAuthError('token_not_yet_valid', 'Token is not valid yet (nbf)', { cause: err });
    }
    if (claim === 'aud')
      return new JwtAuthError('audience_not_allowed', 'Token audience is not accepted', { cause: err });
    if (claim === 'iss')
      return new JwtAuthError('issuer_not_allowed', 'Token issuer is not accepted', { cause: err });
    if (reason === 'missing') return invalid(`Token has no \`${claim}\` claim`, err);
    return invalid(
      `Token claim \`${claim}\` is invalid (${claim === 'exp' || claim === 'nbf' || claim === 'iat' ? 'must be a number' : 'unexpected value'})`,
      err,
    );
  }
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
    return new JwtAuthError('algorithm_not_allowed', 'Token algorithm is not allowed for these keys', {
      cause: err,
    });
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) {
    return new JwtAuthError('invalid_signature', 'Token signature is invalid', { cause: err });
  }
  if (err instanceof errors.JWKSNoMatchingKey) {
    return new JwtAuthError(
      'unknown_signing_key',
      'Token was signed with a key the identity provider does not publish',
      {
        cause: err,
      },
    );
  }
  return invalid('The bearer token is not a valid JWT', err);
}

/**
 * Verifies a compact JWT: the header first (allowed algorithm, `typ` JWT or at+jwt when present), then
 * the signature with the key set the token's issuer picks, then `exp` (required, a number), `nbf`, the
 * audience (when configured) and the bound issuer, with `clockToleranceSeconds` of skew. Unknown `crit`
 * extensions are refused. Rejects with JwtAuthError: 401 for every token fault, 503 when the keys cannot
 * be fetched (never a pass).
 */
export async function verifyJwt(
  token: string,
  keySets: KeySets,
  options: VerifyOptions,
): Promise<JWTPayload> {
  try {
    checkHeader(token);
    const claims = unverifiedClaims(token);
    if (!claims) throw invalid('The bearer token is not a valid JWT');
    const iss = typeof claims.iss === 'string' ? claims.iss : undefined;
    const candidates = await keySets.candidates(iss);
    if (candidates.length === 0) throw new JwtAuthError('issuer_not_allowed', 'Token issuer is not accepted');
    const base: JWTVerifyOptions = {
      algorithms: [...ALLOWED_ALGORITHMS],
      clockTolerance: options.clockToleranceSeconds,
      requiredClaims: ['exp'],
      ...(options.audiences ? { audience: [...options.audiences] } : {}),
    };
    let last: unknown;
    for (const { getKey, issuer } of candidates) {
      try {
        return await verifyWith(token, getKey, issuer === undefined ? base : { ...base, issuer });
      } catch (err) {
        // bare key sets share no issuer: the next one may hold this kid (kids like `rsa-1` collide)
        const tryNext =
          err instanceof errors.JWKSNoMatchingKey ||
          (issuer === undefined && err instanceof errors.JWSSignatureVerificationFailed);
        if (!tryNext) throw err;
        last = last instanceof errors.JWSSignatureVerificationFailed ? last : err;
      }
    }
    throw last;
  } catch (err) {
    throw translate(err);
  }
}
