import { readFileSync } from 'node:fs';
import type { GoogleAuth, JWTInput } from 'google-auth-library';
import { AuthenticationError, TimeoutError } from '../../errors/classes.js';
import { errorFromResponse } from '../../errors/map-error.js';
import { MissingPeerError } from '../../errors/missing-peer.js';
import { googleAuthLibrary } from '../../peers/google-auth.js';
import type { OptionalPeer } from '../../peers/optional-peer.js';
import type { CallSignal } from '../../shared/call-signal.js';
import { errorContextOf } from '../shared/error-context.js';
import type { CallOptions, ProviderRuntime, ProviderTarget } from '../shared/provider-adapter.js';
import { runtimeFor } from '../shared/provider-runtime.js';

type GoogleAuthModule = typeof import('google-auth-library');

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
// google-auth-library posts service-account grants here whatever the key file's `token_uri` says
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const TOKEN_TIMEOUT_MS = 30_000;

/** The runtime key of a router's GoogleAuth clients. */
const GOOGLE_AUTHS = 'vertex_ai.google-auths';

interface GoogleAuths {
  /** One GoogleAuth per credential: the library caches and refreshes its token there. */
  readonly byCredential: Map<string, GoogleAuth>;
  /** And per deployment, so a key file is read once, not on every call. */
  readonly byTarget: WeakMap<ProviderTarget, GoogleAuth>;
}

// Fields of a credentials file, and of the token requests made from it, that must never be shown.
const SECRET_FIELDS = ['private_key', 'client_secret', 'refresh_token', 'assertion', 'subject_token'];

/** Registers the secret fields of a key file or a token request body (form or JSON) with the runtime. */
function registerSecrets(runtime: ProviderRuntime, data: unknown): void {
  const fields =
    typeof data === 'string' ? new URLSearchParams(data) : data instanceof URLSearchParams ? data : undefined;
  for (const name of SECRET_FIELDS) {
    const value = fields ? fields.get(name) : (data as Record<string, unknown> | undefined)?.[name];
    if (typeof value === 'string') runtime.addSecret(value);
  }
}

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

/**
 * The transporter of a GoogleAuth: registers every secret a token request carries (the signed JWT
 * assertion, a refresh token) with the runtime before it is sent, so an endpoint that echoes it cannot
 * put it in an error; and sends token requests to the key file's own `token_uri` (as Google's Python
 * library does).
 */
function transporterFor(
  library: GoogleAuthModule,
  runtime: ProviderRuntime,
  tokenUri: string | undefined,
): InstanceType<GoogleAuthModule['gaxios']['Gaxios']> {
  const transporter = new library.gaxios.Gaxios();
  transporter.interceptors.request.add({
    resolved: async (config) => {
      registerSecrets(runtime, config.data);
      if (tokenUri && config.url.href === GOOGLE_TOKEN_URL) config.url = new URL(tokenUri);
      return config;
    },
  });
  return transporter;
}

function authFor(library: GoogleAuthModule, target: ProviderTarget, runtime: ProviderRuntime): GoogleAuth {
  const auths = runtime.shared<GoogleAuths>(GOOGLE_AUTHS, () => ({
    byCredential: new Map(),
    byTarget: new WeakMap(),
  }));
  const known = auths.byTarget.get(target);
  if (known) return known;
  const { key, json } = readCredentials(target.params.vertex_credentials);
  // a key file named by path is not among the deployment's svc_params secrets: its private key is now
  if (json) registerSecrets(runtime, json);
  let auth = auths.byCredential.get(key);
  if (!auth) {
    const tokenUri = typeof json?.token_uri === 'string' ? json.token_uri : undefined;
    auth = new library.GoogleAuth({
      scopes: SCOPE,
      ...(json ? { credentials: json as JWTInput } : {}),
      clientOptions: { transporter: transporterFor(library, runtime, tokenUri) },
    });
    auths.byCredential.set(key, auth);
  }
  auths.byTarget.set(target, auth);
  return auth;
}

/** How a missing google-auth-library names the deployment and what it was for. */
function need(target: ProviderTarget): [neededBy: string, purpose: string] {
  const credentials = target.params.vertex_credentials;
  return [
    `${target.provider}/ deployment "${target.model}"`,
    credentials === undefined || credentials === null || credentials === ''
      ? 'for Application Default Credentials (or set `api_key`)'
      : 'for its service-account key (`vertex_credentials`)',
  ];
}

/**
 * The construction-time check: a deployment without `api_key` gets its token from google-auth-library,
 * which must be installed. `library` is the package it loads.
 *
 * @throws MissingPeerError naming the package and the deployment.
 */
export function checkGoogleAuth(
  target: ProviderTarget,
  library: OptionalPeer<unknown> = googleAuthLibrary,
): void {
  if (target.apiKey === undefined) library.check(...need(target));
}

class TokenTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number, signal: CallSignal | undefined): Promise<T> {
  // an aborted signal fires no more: a wait that starts after the abort would run to its timeout
  if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TokenTimeout(`no Google access token within ${ms} ms`)), ms);
    const onAbort = () => reject(signal?.reason ?? new Error('aborted'));
    signal?.addEventListener('abort', onAbort);
    promise.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}

/**
 * A Google access token for Vertex AI: from `vertex_credentials` (service-account JSON object or
 * text, or a key file path) or Application Default Credentials. Tokens are cached and refreshed by
 * google-auth-library (an optional peer, loaded on the first token), in a client kept in the call's
 * runtime; the token, the signed assertion and the key's secrets are registered there as secrets.
 * Failure is an AuthenticationError naming the deployment, never the key (and naming the package to
 * install when google-auth-library is missing); no token within `timeoutMs` (at most 30 s) is a
 * TimeoutError. `library` is the package tokens come from.
 */
export async function googleAccessToken(
  target: ProviderTarget,
  options: Pick<CallOptions, 'timeoutMs' | 'signal' | 'runtime'> = { timeoutMs: TOKEN_TIMEOUT_MS },
  library: OptionalPeer<GoogleAuthModule> = googleAuthLibrary,
): Promise<string> {
  const { signal } = options;
  const runtime = runtimeFor(target, options);
  try {
    const module = library.module ?? (await library.load(...need(target)));
    const token = await withTimeout(
      authFor(module, target, runtime).getAccessToken(),
      Math.min(options.timeoutMs, TOKEN_TIMEOUT_MS),
      signal,
    );
    if (!token) throw new Error('google-auth-library returned no access token');
    runtime.addSecret(token);
    return token;
  } catch (err) {
    if (signal?.aborted) throw signal.reason ?? err;
    const { provider, model, modelId } = target;
    if (err instanceof TokenTimeout)
      throw new TimeoutError(`${provider}/${model}: ${err.message}`, { provider, model, modelId });
    if (err instanceof MissingPeerError)
      throw new AuthenticationError(err.message, { provider, model, modelId, cause: err });
    const reason = err instanceof Error ? err.message : String(err);
    throw errorFromResponse(
      { status: 401, message: `could not get a Google access token: ${reason}`, code: 'UNAUTHENTICATED' },
      errorContextOf(target),
    );
  }
}

/**
 * Vertex AI headers: `Authorization: Bearer {api_key}` when svc_params has one, else a Google token. The
 * token fetch is bounded by the call's own timeout and abort, like the call itself.
 */
export async function vertexHeaders(
  target: ProviderTarget,
  options: Pick<CallOptions, 'timeoutMs' | 'signal' | 'runtime'>,
): Promise<Record<string, string>> {
  const token = target.apiKey ?? (await googleAccessToken(target, options));
  return { 'content-type': 'application/json', authorization: `Bearer ${token}` };
}
