import type { Claims } from './claims.js';
import { JwtAuthError } from './errors.js';
import { getJson, IdentityProviderError } from './http-json.js';
import { TtlCache, tokenKey } from './ttl-cache.js';

export interface UserInfoOptions {
  endpoint: string;
  ttlMs: number;
  timeoutMs: number;
}

/**
 * The identity provider's UserInfo endpoint (spec 5.9): called with the bearer token, its claims cached
 * per token for `ttlMs` (and never past the token's own `exp`). A 4xx answer means the provider does not
 * accept the token (401); no answer, a 5xx or a body that is not a JSON object is 503.
 */
export class UserInfoClient {
  private readonly cache = new TtlCache<Claims>();

  constructor(private readonly options: UserInfoOptions) {}

  async claims(token: string, lifetimeMs = Number.POSITIVE_INFINITY): Promise<Claims> {
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
        "The identity provider's UserInfo endpoint did not answer; try again later",
        { cause },
      );
    }
    if (!answer.body) {
      throw new JwtAuthError('invalid_token', 'The identity provider did not accept the token (UserInfo)');
    }
    this.cache.set(key, answer.body, Math.min(this.options.ttlMs, lifetimeMs));
    return answer.body;
  }

  clear(): void {
    this.cache.clear();
  }
}
