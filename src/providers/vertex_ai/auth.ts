import { readFileSync } from 'node:fs';
import { GoogleAuth, gaxios, type JWTInput } from 'google-auth-library';
import { TimeoutError } from '../../errors/classes.js';
import { errorFromResponse } from '../../errors/map-error.js';
import { errorContextOf } from '../shared/error-context.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
// google-auth-library posts service-account grants here whatever the key file's `token_uri` says
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const TOKEN_TIMEOUT_MS = 30_000;

// one GoogleAuth per credential: the library caches and refreshes its token there
const auths = new Map<string, GoogleAuth>();
// and per deployment, so a key file is read once, not on every call
const byTarget = new WeakMap<ProviderTarget, GoogleAuth>();

/** `vertex_credentials` as key-file JSON: an object, JSON text, or the path of a JSON file. */
function readCredentials(value: unknown): { key: string; json?: Record<string, unknown> } {
  if (value && typeof value === 'object')
    return { key: JSON.stringify(value), json: value as Record<string, unknown> };
  if (typeof value !== 'string' || value.trim() === '') return { key: 'adc' };
  const inline = value.trim().startsWith('{');
  const text = inline ? value : readFileSync(value, 'utf8');
  try {
    return { key: text, json: JSON.parse(text) as Record<string, unknown> };
  } catch {
    // the parser's message quotes the text, and the text holds a private key
    throw new Error(`vertex_credentials ${inline ? 'text' : `file ${value}`} is not valid JSON`);
  }
}

/** A transporter that sends token requests to the key file's own `token_uri` (as Google's Python library does). */
function transporterFor(tokenUri: string): InstanceType<typeof gaxios.Gaxios> {
  const transporter = new gaxios.Gaxios();
  transporter.interceptors.request.add({
    resolved: async (config) => {
      if (config.url.href === GOOGLE_TOKEN_URL) config.url = new URL(tokenUri);
      return config;
    },
  });
  return transporter;
}

function authFor(target: ProviderTarget): GoogleAuth {
  const known = byTarget.get(target);
  if (known) return known;
  const { key, json } = readCredentials(target.params.vertex_credentials);
  let auth = auths.get(key);
  if (auth) {
    byTarget.set(target, auth);
    return auth;
  }
  const tokenUri = typeof json?.token_uri === 'string' ? json.token_uri : undefined;
  auth = new GoogleAuth({
    scopes: SCOPE,
    ...(json ? { credentials: json as JWTInput } : {}),
    ...(tokenUri && tokenUri !== GOOGLE_TOKEN_URL
      ? { clientOptions: { transporter: transporterFor(tokenUri) } }
      : {}),
  });
  auths.set(key, auth);
  byTarget.set(target, auth);
  return auth;
}

class TokenTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number, signal: AbortSignal | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TokenTimeout(`no Google access token within ${ms} ms`)), ms);
    const onAbort = () => reject(signal?.reason ?? new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}

/**
 * A Google access token for Vertex AI: from `vertex_credentials` (service-account JSON object or
 * text, or a key file path) or Application Default Credentials. Tokens are cached and refreshed by
 * google-auth-library. Failure is an AuthenticationError naming the deployment, never the key; no
 * token within `timeoutMs` (at most 30 s) is a TimeoutError.
 */
export async function googleAccessToken(
  target: ProviderTarget,
  timeoutMs: number = TOKEN_TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<string> {
  try {
    const token = await withTimeout(
      authFor(target).getAccessToken(),
      Math.min(timeoutMs, TOKEN_TIMEOUT_MS),
      signal,
    );
    if (!token) throw new Error('google-auth-library returned no access token');
    return token;
  } catch (err) {
    if (signal?.aborted) throw signal.reason ?? err;
    const { provider, model, modelId } = target;
    if (err instanceof TokenTimeout)
      throw new TimeoutError(`${provider}/${model}: ${err.message}`, { provider, model, modelId });
    const reason = err instanceof Error ? err.message : String(err);
    throw errorFromResponse(
      { status: 401, message: `could not get a Google access token: ${reason}`, code: 'UNAUTHENTICATED' },
      errorContextOf(target),
    );
  }
}

/** Vertex AI headers: `Authorization: Bearer {api_key}` when svc_params has one, else a Google token. */
export async function vertexHeaders(
  target: ProviderTarget,
  timeoutMs?: number,
  signal?: AbortSignal,
): Promise<Record<string, string>> {
  const token = target.apiKey ?? (await googleAccessToken(target, timeoutMs, signal));
  return { 'content-type': 'application/json', authorization: `Bearer ${token}` };
}
