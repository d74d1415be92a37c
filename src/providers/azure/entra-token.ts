import { request } from 'undici';
import { errorFromNetwork, errorFromResponse } from '../../errors/map-error.js';
import type { CallSignal } from '../../shared/call-signal.js';
import { clampTimerMs } from '../../shared/timers.js';
import { errorContextOf } from '../shared/error-context.js';
import { asString, parseJsonObject } from '../shared/json.js';
import type { CallOptions, ProviderTarget } from '../shared/provider-adapter.js';

/** Microsoft Entra ID client credentials of a deployment. */
export interface EntraCredentials {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** @default 'https://login.microsoftonline.com' (svc_params `azure_authority_host`) */
  authorityHost: string;
  /** @default 'https://cognitiveservices.azure.com/.default' */
  scope: string;
}

const DEFAULT_AUTHORITY = 'https://login.microsoftonline.com';
const DEFAULT_SCOPE = 'https://cognitiveservices.azure.com/.default';
// Refresh this long before expiry so no call carries a token that lapses in flight.
const REFRESH_MARGIN_MS = 5 * 60_000;

interface Cached {
  token: Promise<string>;
  /** When to fetch a new one (ms epoch); Infinity while the first fetch is pending. */
  refreshAt: number;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The client credentials in a deployment's svc_params (`tenant_id`, `client_id`, `client_secret`), if all are set. */
export function entraCredentialsOf(target: ProviderTarget): EntraCredentials | undefined {
  const p = target.params;
  const tenantId = str(p.tenant_id);
  const clientId = str(p.client_id);
  const clientSecret = str(p.client_secret);
  if (!tenantId || !clientId || !clientSecret) return undefined;
  return {
    tenantId,
    clientId,
    clientSecret,
    authorityHost: (str(p.azure_authority_host) ?? DEFAULT_AUTHORITY).replace(/\/+$/, ''),
    scope: str(p.azure_scope) ?? DEFAULT_SCOPE,
  };
}

/** The shared token, or the caller's abort reason as soon as the caller aborts. */
function withCallerAbort(token: Promise<string>, signal: CallSignal | undefined): Promise<string> {
  if (!signal) return token;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort);
    token.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Access tokens from the Entra ID client-credentials flow
 * (`POST {authority}/{tenant}/oauth2/v2.0/token`), cached per tenant, client and scope until five
 * minutes before they expire; concurrent calls share one fetch. A refused request is an
 * AuthenticationError carrying Entra's `error_description`; the secret never appears in it.
 */
export class EntraTokenCache {
  readonly #cache = new Map<string, Cached>();

  constructor(private readonly now: () => number = Date.now) {}

  token(credentials: EntraCredentials, target: ProviderTarget, options: CallOptions): Promise<string> {
    const key = `${credentials.authorityHost}|${credentials.tenantId}|${credentials.clientId}|${credentials.scope}`;
    const cached = this.#cache.get(key);
    if (cached && this.now() < cached.refreshAt) return withCallerAbort(cached.token, options.signal);
    const entry: Cached = { token: Promise.resolve(''), refreshAt: Number.POSITIVE_INFINITY };
    // the fetch is shared by every concurrent call: one caller's abort must not fail the others
    entry.token = this.#fetch(credentials, target, options.timeoutMs).then(
      ({ token, expiresInMs }) => {
        entry.refreshAt = this.now() + Math.max(expiresInMs - REFRESH_MARGIN_MS, expiresInMs / 2);
        return token;
      },
      (err: unknown) => {
        if (this.#cache.get(key) === entry) this.#cache.delete(key);
        throw err;
      },
    );
    this.#cache.set(key, entry);
    return withCallerAbort(entry.token, options.signal);
  }

  async #fetch(
    c: EntraCredentials,
    target: ProviderTarget,
    timeoutMs: number,
  ): Promise<{ token: string; expiresInMs: number }> {
    const ctx = errorContextOf(target, [c.clientSecret]);
    const url = `${c.authorityHost}/${encodeURIComponent(c.tenantId)}/oauth2/v2.0/token`;
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: c.clientId,
      client_secret: c.clientSecret,
      scope: c.scope,
    });
    const timeout = AbortSignal.timeout(clampTimerMs(timeoutMs));
    let status: number;
    let text: string;
    try {
      const response = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        signal: timeout,
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (err) {
      throw errorFromNetwork(err, ctx, 'Entra ID token request');
    }
    const body = parseJsonObject(text);
    const token = asString(body?.access_token);
    if (status < 400 && token) {
      const seconds = Number(body?.expires_in);
      return { token, expiresInMs: (Number.isFinite(seconds) && seconds > 0 ? seconds : 3600) * 1000 };
    }
    const reason = asString(body?.error_description) ?? asString(body?.error) ?? text.slice(0, 300);
    // any refusal of the credentials is an authentication failure, whatever status Entra chose
    throw errorFromResponse(
      {
        status: status >= 400 && status < 500 ? 401 : status < 400 ? 500 : status,
        message: `Entra ID token request failed (HTTP ${status}): ${reason}`,
        code: asString(body?.error),
      },
      ctx,
    );
  }
}
