import { createRemoteJWKSet, errors, type JWTVerifyGetKey } from 'jose';
import { getJson, IdentityProviderError } from './http-json.js';

/** One key set a token may be verified against, with the issuer its tokens must name (when known). */
export interface KeySetCandidate {
  getKey: JWTVerifyGetKey;
  /** The issuer bound to this key set by its discovery document; undefined for a bare JWKS URL. */
  issuer: string | undefined;
}

export interface KeySetOptions {
  /** How long fetched keys (and discovery documents) are used before they are fetched again. */
  ttlMs: number;
  /** Least time between two fetches caused by tokens with an unknown `kid`. */
  cooldownMs: number;
  /** Bound on each fetch. */
  timeoutMs: number;
}

interface Discovered {
  issuer: string;
  jwksUri: string;
  fetchedAt: number;
}

interface Source {
  url: string;
  discovery: boolean;
  discovered?: Discovered;
  pending?: Promise<void>;
  /** The last discovery failure, when there is no document to fall back on. */
  failed?: unknown;
  /** When the last discovery attempt failed. */
  failedAt?: number;
}

const DISCOVERY_SUFFIXES = ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server'];

/** Whether a `JWT_PUBLIC_KEY_URL` entry is an OpenID/OAuth discovery document rather than a JWKS. */
export function isDiscoveryUrl(url: string): boolean {
  const { pathname } = new URL(url);
  return DISCOVERY_SUFFIXES.some((suffix) => pathname.endsWith(suffix));
}

/** Longest wait before a provider that failed is asked again. */
const MAX_RETRY_MS = 5_000;

const PASSED_THROUGH = [errors.JWKSNoMatchingKey, errors.JWKSMultipleMatchingKeys, errors.JOSENotSupported];

/**
 * The key sets of every `JWT_PUBLIC_KEY_URL` entry. A discovery URL
 * (`.../.well-known/openid-configuration`) binds its `issuer` to its `jwks_uri`: a token naming that
 * issuer is verified against that key set only, so a key of another configured provider cannot vouch
 * for it. A bare JWKS URL has no known issuer: tokens whose `iss` no discovery document names are tried
 * against those key sets, in order.
 *
 * Keys are jose remote key sets: fetched on first use, kept `ttlMs`, fetched again on an unknown `kid`
 * at most once per `cooldownMs`. Once fetched, verifying makes no network call. After a failed fetch the
 * provider is not asked again for `min(cooldownMs, 5 s)`: requests meanwhile fail at once (503).
 */
export class KeySets {
  private readonly sources: Source[];
  private readonly jwks = new Map<string, JWTVerifyGetKey>();

  constructor(
    urls: readonly string[],
    private readonly options: KeySetOptions,
  ) {
    this.sources = urls.map((url) => ({ url, discovery: isDiscoveryUrl(url) }));
  }

  /** Whether any key set is configured. */
  get size(): number {
    return this.sources.length;
  }

  /**
   * The key sets a token with this (unverified) `iss` may be verified against; empty when none may.
   * Throws IdentityProviderError when a discovery document that could bind this issuer cannot be read.
   */
  async candidates(iss: string | undefined): Promise<KeySetCandidate[]> {
    const discovery = this.sources.filter((s) => s.discovery);
    if (discovery.some((s) => !this.isFresh(s))) await Promise.all(discovery.map((s) => this.refresh(s)));
    if (iss !== undefined) {
      const bound = discovery.filter((s) => s.discovered?.issuer === iss);
      if (bound.length > 0)
        return bound.map((s) => this.candidate(s.discovered!.jwksUri, s.discovered!.issuer));
    }
    const unknown = discovery.find((s) => !s.discovered);
    if (unknown) {
      // the issuer might be the one this unreadable document would have named: refuse to guess
      throw new IdentityProviderError('discovery document unavailable', { cause: unknown.failed });
    }
    return this.sources.filter((s) => !s.discovery).map((s) => this.candidate(s.url, undefined));
  }

  /**
   * How long after a failed fetch the provider is not asked again: requests meanwhile are answered at
   * once (from a document read before, or 503) instead of each waiting for a provider that is down.
   */
  private get retryMs(): number {
    return Math.min(this.options.cooldownMs, MAX_RETRY_MS);
  }

  private isFresh(source: Source): boolean {
    return source.discovered !== undefined && Date.now() - source.discovered.fetchedAt < this.options.ttlMs;
  }

  private refresh(source: Source): Promise<void> {
    if (this.isFresh(source)) return Promise.resolve();
    if (source.failedAt !== undefined && Date.now() - source.failedAt < this.retryMs)
      return Promise.resolve();
    source.pending ??= this.discover(source).finally(() => {
      source.pending = undefined;
    });
    return source.pending;
  }

  private async discover(source: Source): Promise<void> {
    try {
      const { status, body } = await getJson(source.url, { timeoutMs: this.options.timeoutMs });
      if (!body) throw new IdentityProviderError(`discovery answered ${status}`);
      const { issuer, jwks_uri: jwksUri } = body;
      if (typeof issuer !== 'string' || issuer === '' || typeof jwksUri !== 'string') {
        throw new IdentityProviderError('discovery document lacks issuer or jwks_uri');
      }
      const { protocol } = new URL(jwksUri);
      if (protocol !== 'https:' && protocol !== 'http:')
        throw new IdentityProviderError('jwks_uri is not http(s)');
      source.discovered = { issuer, jwksUri, fetchedAt: Date.now() };
      source.failed = undefined;
      source.failedAt = undefined;
    } catch (cause) {
      // a document read before stays in use: its keys still follow their own TTL and fail closed
      if (!source.discovered) source.failed = cause;
      source.failedAt = Date.now();
    }
  }

  private candidate(jwksUrl: string, issuer: string | undefined): KeySetCandidate {
    let getKey = this.jwks.get(jwksUrl);
    if (!getKey) {
      const remote = createRemoteJWKSet(new URL(jwksUrl), {
        cacheMaxAge: this.options.ttlMs,
        cooldownDuration: this.options.cooldownMs,
        timeoutDuration: Math.max(1, Math.round(this.options.timeoutMs)),
      });
      let failedAt: number | undefined;
      getKey = async (header, token) => {
        // keys that need fetching from a provider that just failed: refuse at once, do not wait again
        if (!remote.fresh && failedAt !== undefined && Date.now() - failedAt < this.retryMs) {
          throw new IdentityProviderError('key set unavailable (recent failure)');
        }
        try {
          return await remote(header, token);
        } catch (err) {
          if (PASSED_THROUGH.some((type) => err instanceof type)) throw err;
          failedAt = Date.now();
          throw new IdentityProviderError('key set unavailable', { cause: err });
        }
      };
      this.jwks.set(jwksUrl, getKey);
    }
    return { getKey, issuer };
  }
}
