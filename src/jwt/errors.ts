const MARK = Symbol.for('@svc/router.jwt-auth-error');

/**
 * Why a request was refused, stable across versions. 401 codes say the credentials are not valid, 403
 * codes that a valid identity lacks the right, 503 that the identity provider or the auth store could
 * not be asked.
 */
export const JWT_AUTH_ERROR_CODES = {
  missing_token: 401,
  not_a_jwt: 401,
  token_too_large: 401,
  invalid_token: 401,
  invalid_signature: 401,
  algorithm_not_allowed: 401,
  token_type_not_allowed: 401,
  token_expired: 401,
  token_not_yet_valid: 401,
  audience_not_allowed: 401,
  issuer_not_allowed: 401,
  unknown_signing_key: 401,
  custom_validate_failed: 401,
  oauth2_token_invalid: 401,
  path_not_allowed: 403,
  route_not_allowed: 403,
  model_not_allowed: 403,
  team_not_in_token: 403,
  team_not_found: 403,
  team_blocked: 403,
  ambiguous_alias: 403,
  organization_not_found: 403,
  email_domain_not_allowed: 403,
  user_not_found: 403,
  no_identity: 403,
  role_not_mapped: 403,
  identity_provider_unavailable: 503,
  auth_store_unavailable: 503,
} as const satisfies Record<string, 401 | 403 | 503>;

/** A stable code of {@link JwtAuthError}. */
export type JwtAuthErrorCode = keyof typeof JWT_AUTH_ERROR_CODES;

/** The JSON body a server sends for a refused request. */
export type JwtAuthErrorBody =
  | { error: { message: string; type: string; code: JwtAuthErrorCode } }
  | { error: 'Invalid JWT token' };

const TYPES = { 401: 'authentication_error', 403: 'permission_denied', 503: 'service_unavailable' } as const;

/**
 * Why `authenticate` refused a request. `status` is 401 (no valid credentials), 403 (a valid identity
 * without the right to this route or model) or 503 (the identity provider or the auth store did not
 * answer: the request is refused, never let through). `message` is safe to send to the caller: it never
 * holds a key, a URL of the identity provider, a stack or a database error; the underlying error, for
 * server logs only, is `cause` (not enumerable, so it stays out of `JSON.stringify`).
 *
 * @example
 * try { ctx = await auth.authenticate(req) }
 * catch (err) { if (JwtAuthError.isInstance(err)) res.writeHead(err.status).end(JSON.stringify(err.body)) }
 */
export class JwtAuthError extends Error {
  readonly status: 401 | 403 | 503;
  readonly code: JwtAuthErrorCode;
  /** The OpenAI-style error `type`: `authentication_error`, `permission_denied` or `service_unavailable`. */
  readonly type: string;

  constructor(code: JwtAuthErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message);
    this.name = 'JwtAuthError';
    this.code = code;
    this.status = JWT_AUTH_ERROR_CODES[code];
    this.type = TYPES[this.status];
    if (options.cause !== undefined) {
      Object.defineProperty(this, 'cause', { value: options.cause, enumerable: false });
    }
    Object.defineProperty(this, MARK, { value: true });
  }

  /**
   * The response body: `{ error: { message, type, code } }`, except a failed `custom_validate`, whose body
   * the spec fixes as `{ "error": "Invalid JWT token" }`.
   */
  get body(): JwtAuthErrorBody {
    if (this.code === 'custom_validate_failed') return { error: 'Invalid JWT token' };
    return { error: { message: this.message, type: this.type, code: this.code } };
  }

  /** `instanceof` that also holds across two copies of this package in one process. */
  static isInstance(value: unknown): value is JwtAuthError {
    return typeof value === 'object' && value !== null && MARK in value;
  }
}

/**
 * A value from the caller's token, fit to quote in an error message: at most 64 characters, control
 * characters removed (so a crafted claim cannot forge log lines), in backticks.
 */
export function quoted(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f`]/g, '');
  return `\`${clean.length > 64 ? `${clean.slice(0, 61)}...` : clean}\``;
}
