import { asString, type Claims } from './claims.js';
import { JwtAuthError } from './errors.js';
import { getJson, IdentityProviderError } from './http-json.js';
import { msUntilExp, TtlCache, tokenKey } from './ttl-cache.js';

/** Longest time an OAuth2 token-info answer is reused (CONTRACT 5.6). */
const MAX_CACHE_MS = 60_000;

export interface OAuth2Identity {
  user_id: string | undefined;
  user_role: string | undefined;
  team_id: string | undefined;
  claims: Claims;
}

export interface OAuth2Options {
  endpoint: string;
  timeoutMs: number;
  userIdField: string;
  userRoleField: string;
  teamIdField: string;
}

/**
 * OAuth2 token validation (CONTRACT 5.6): `GET {token info endpoint}` with the bearer token. A 4xx
 * answer or `active: false` is 401; no answer or a 5xx is 503. The identity comes from the answer's
 * fields named by `oauth_user_id_field_name` (default `sub`), `oauth_user_role_field_name` (`role`) and
 * `oauth_user_team_id_field_name` (`team_id`). Answers are reused for at most 60 s and never past the
 * token's `exp`.
 */
export class OAuth2Validator {
  private readonly cache = new TtlCache<OAuth2Identity>();

  constructor(private readonly options: OAuth2Options) {}

  async validate(token: string): Promise<OAuth2Identity> {
    const key = tokenKey(token);
    const cached = this.cache.get(key);
    if (cached) return cached;
    let answer: Awaited<ReturnType<typeof getJson>>;
    try {
      answer = await getJson(this.options.endpoint, {
        timeoutMs: this.options.timeoutMs,
        headers: { authorization: `Bearer ${token}` },
      });
    } catch (cause) {
      if (!(cause instanceof IdentityProviderError)) throw cause;
      throw new JwtAuthError(
        'identity_provider_unavailable',
        'The OAuth2 token info endpoint did not answer; try again later',
        { cause },
      );
    }
    const body = answer.body;
    if (!body || body.active === false) {
      throw new JwtAuthError('oauth2_token_invalid', 'The OAuth2 token is not active');
    }
    const lifetime = msUntilExp(body);
    if (lifetime <= 0) throw new JwtAuthError('token_expired', 'Token has expired');
    const identity: OAuth2Identity = {
      user_id: asString(body[this.options.userIdField]),
      user_role: asString(body[this.options.userRoleField]),
      team_id: asString(body[this.options.teamIdField]),
      claims: body,
    };
    this.cache.set(key, identity, Math.min(MAX_CACHE_MS, lifetime));
    return identity;
  }

  clear(): void {
    this.cache.clear();
  }
}
