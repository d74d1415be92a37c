import {
  type CryptoKey,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
  jwtVerify,
} from 'jose';
import { JwtAuthError, quoted } from './errors.js';
import { IdentityProviderError } from './http-json.js';
import type { KeySets } from './key-sets.js';
import { msUntilExp, TtlCache, tokenKey } from './ttl-cache.js';

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

/** The two JSON parts of a compact JWS, decoded but not verified. */
export interface CompactParts {
  header: Record<string, unknown> & { alg: string };
  /** Undefined when the payload is not a JSON object (the token is then invalid, not opaque). */
  claims: JWTPayload | undefined;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

function jsonObject(part: string): Record<string, unknown> | undefined {
  if (!B64URL.test(part)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Decodes a bearer value shaped like a compact JWS (three dot-separated base64url parts whose first is
 * a JSON header with an `alg`), once, for every later step; undefined for anything else (an opaque
 * token, a virtual key). Nothing here is verified: the claims may only choose a key set or an OAuth2
 * route, never be trusted.
 */
export function decodeCompact(token: string): CompactParts | undefined {
  const first = token.indexOf('.');
  const second = token.indexOf('.', first + 1);
  if (first <= 0 || second <= first + 1 || token.indexOf('.', second + 1) !== -1) return undefined;
  const signature = token.slice(second + 1);
  if (signature !== '' && !B64URL.test(signature)) return undefined;
  const header = jsonObject(token.slice(0, first));
  if (!header || typeof header.alg !== 'string') return undefined;
  return { header: header as CompactParts['header'], claims: jsonObject(token.slice(first + 1, second)) };
}

export interface VerifyOptions {
  audiences: readonly string[] | undefined;
  clockToleranceSeconds: number;
  /**
   * How long a verified token is remembered (never past its `exp`); 0 verifies every time.
   * @default VERIFIED_TOKEN_TTL_MS
   */
  rememberVerifiedMs?: number;
}

const invalid = (message: string, cause?: unknown) => new JwtAuthError('invalid_token', message, { cause });

function checkHeader(header: CompactParts['header']): void {
  const { alg, typ } = header;
  if (!ALLOWED_ALGORITHMS.includes(alg)) {
    throw new JwtAuthError(
      'algorithm_not_allowed',
      `Token algorithm ${quoted(alg)} is not allowed; expected an asymmetric algorithm (RS*, PS*, ES*, EdDSA)`,
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

/** A token verifier bound to one auth instance's key sets and options (built once). */
export type JwtVerifier = ((token: string, parts?: CompactParts) => Promise<JWTPayload>) & {
  /**
   * The payload of a token verified recently and still remembered, without decoding it again (a
   * client sends the same token on every call); undefined when it is not remembered.
   */
  known?(token: string): JWTPayload | undefined;
};

/**
 * How long a verified token is remembered at most (and never past its `exp`; createJwtAuth also keeps it
 * within `public_key_ttl`): a client sends the same token on every call, and checking its signature
 * again costs far more than a hash. It is also the longest a token stays accepted after its signing key
 * is withdrawn from the key set.
 */
export const VERIFIED_TOKEN_TTL_MS = 60_000;

/**
 * Verifies a compact JWT: the header first (allowed algorithm, `typ` JWT or at+jwt when present), then
 * the signature with the key set the token's issuer picks, then `exp` (required, a number), `nbf`, the
 * audience (when configured) and the bound issuer, with `clockToleranceSeconds` of skew. Unknown `crit`
 * extensions are refused. Rejects with JwtAuthError: 401 for every token fault, 503 when the keys cannot
 * be fetched (never a pass).
 */
export function createVerifier(keySets: KeySets, options: VerifyOptions): JwtVerifier {
  const base: JWTVerifyOptions = {
    algorithms: [...ALLOWED_ALGORITHMS],
    clockTolerance: options.clockToleranceSeconds,
    requiredClaims: ['exp'],
    ...(options.audiences ? { audience: [...options.audiences] } : {}),
  };
  const bound = new Map<string, JWTVerifyOptions>();
  const optionsFor = (issuer: string | undefined) => {
    if (issuer === undefined) return base;
    let o = bound.get(issuer);
    if (!o) {
      o = { ...base, issuer };
      bound.set(issuer, o);
    }
    return o;
  };
  const rememberMs = options.rememberVerifiedMs ?? VERIFIED_TOKEN_TTL_MS;
  if (!(rememberMs > 0)) {
    return (token, parts = decodeCompact(token)) => verify(token, parts, keySets, optionsFor);
  }
  const verified = new TtlCache<JWTPayload>(10_000);
  const remembered = (key: string): JWTPayload | undefined => {
    const known = verified.get(key);
    // checked here too: an entry's TTL is whole milliseconds, `exp` whole seconds
    return known && msUntilExp(known) > 0 ? known : undefined;
  };
  const verifier: JwtVerifier = async (token, parts = decodeCompact(token)) => {
    const key = tokenKey(token);
    const known = remembered(key);
    if (known) return known;
    const payload = await verify(token, parts, keySets, optionsFor);
    verified.set(key, payload, Math.min(rememberMs, msUntilExp(payload)));
    return payload;
  };
  verifier.known = (token) => remembered(tokenKey(token));
  return verifier;
}

/** {@link createVerifier} for one call. */
export function verifyJwt(token: string, keySets: KeySets, options: VerifyOptions): Promise<JWTPayload> {
  return createVerifier(keySets, { ...options, rememberVerifiedMs: 0 })(token);
}

async function verify(
  token: string,
  parts: CompactParts | undefined,
  keySets: KeySets,
  optionsFor: (issuer: string | undefined) => JWTVerifyOptions,
): Promise<JWTPayload> {
  try {
    if (!parts) throw invalid('The bearer token is not a valid JWT');
    checkHeader(parts.header);
    const claims = parts.claims;
    if (!claims) throw invalid('The bearer token is not a valid JWT');
    const iss = typeof claims.iss === 'string' ? claims.iss : undefined;
    const candidates = await keySets.candidates(iss);
    if (candidates.length === 0) throw new JwtAuthError('issuer_not_allowed', 'Token issuer is not accepted');
    let last: unknown;
    for (const { getKey, issuer } of candidates) {
      try {
        return await verifyWith(token, getKey, optionsFor(issuer));
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
