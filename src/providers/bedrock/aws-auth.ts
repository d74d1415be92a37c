import { createHash } from 'node:crypto';
import { AuthenticationError } from '../../errors/classes.js';
import { type Aws4, aws4 } from '../../peers/aws4.js';
import type { OptionalPeer } from '../../peers/optional-peer.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { problemsOf } from '../shared/validate.js';

/** How a deployment authenticates to Bedrock: a Bedrock API key as Bearer, or SigV4 signing. */
export type BedrockAuth = (
  | { readonly kind: 'bearer'; readonly token: string; readonly region: string | undefined }
  | { readonly kind: 'sigv4'; readonly keys: KeyPair; readonly region: string }
) & {
  /** The deployment, for an error about signing. */
  readonly target: ProviderTarget;
  /** Values that must never appear in an error message. */
  readonly secrets: readonly string[];
};

// Resolved once per deployment (targets live as long as the router): env and svc_params are read on
// the first call, not on every call.
const authCache = new WeakMap<ProviderTarget, BedrockAuth>();

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

function authError(target: ProviderTarget, message: string): AuthenticationError {
  return new AuthenticationError(`${target.provider}/${target.model}: ${message}`, {
    provider: target.provider,
    model: target.model,
    modelId: target.modelId,
  });
}

/** The signing region: svc_params `aws_region_name`, else `AWS_REGION`, else `AWS_DEFAULT_REGION`. */
export function bedrockRegion(
  target: ProviderTarget,
  env: NodeJS.ProcessEnv = target.env,
): string | undefined {
  return text(target.params.aws_region_name) ?? text(env.AWS_REGION) ?? text(env.AWS_DEFAULT_REGION);
}

const noRegion = (target: ProviderTarget): AuthenticationError =>
  authError(
    target,
    'no AWS region: set svc_params `aws_region_name` (or the AWS_REGION / AWS_DEFAULT_REGION environment)',
  );

interface KeyPair {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string | undefined;
}

/** How a missing package names the deployment: `bedrock/ deployment "anthropic.claude-..."`. */
export const deploymentName = (target: ProviderTarget): string =>
  `${target.provider}/ deployment "${target.model}"`;

function keyPair(
  target: ProviderTarget,
  id: unknown,
  secret: unknown,
  token: unknown,
  where: string,
): KeyPair | undefined {
  const accessKeyId = text(id);
  const secretAccessKey = text(secret);
  if (!accessKeyId && !secretAccessKey) return undefined;
  if (!accessKeyId || !secretAccessKey)
    throw authError(target, `${where} sets only one of the access key id and the secret access key`);
  return { accessKeyId, secretAccessKey, sessionToken: text(token) };
}

function sigv4(target: ProviderTarget, keys: KeyPair, env: NodeJS.ProcessEnv): BedrockAuth {
  const region = bedrockRegion(target, env);
  if (!region) throw noRegion(target);
  const secrets = [keys.secretAccessKey, ...(keys.sessionToken ? [keys.sessionToken] : [])];
  return { kind: 'sigv4', keys, region, secrets, target };
}

function bearer(target: ProviderTarget, token: string, env: NodeJS.ProcessEnv): BedrockAuth {
  const region = bedrockRegion(target, env);
  return { kind: 'bearer', token, region, secrets: [token], target };
}

function resolveAuth(target: ProviderTarget, env: NodeJS.ProcessEnv): BedrockAuth {
  const { params } = target;
  // an explicit key in svc_params wins; then explicit IAM keys; then the same two from the environment
  if (text(params.api_key) && target.apiKey) return bearer(target, target.apiKey, env);
  const fromParams = keyPair(
    target,
    params.aws_access_key_id,
    params.aws_secret_access_key,
    params.aws_session_token,
    'svc_params',
  );
  if (fromParams) return sigv4(target, fromParams, env);
  if (target.apiKey) return bearer(target, target.apiKey, env);
  const fromEnv = keyPair(
    target,
    env.AWS_ACCESS_KEY_ID,
    env.AWS_SECRET_ACCESS_KEY,
    env.AWS_SESSION_TOKEN,
    'the environment',
  );
  if (fromEnv) return sigv4(target, fromEnv, env);
  throw authError(
    target,
    'no AWS credentials: set svc_params `aws_access_key_id` and `aws_secret_access_key` (or `api_key` ' +
      'for a Bedrock API key), or the AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or ' +
      'AWS_BEARER_TOKEN_BEDROCK) environment',
  );
}

/**
 * The deployment's Bedrock credentials, resolved on first use and kept for the target's lifetime.
 * Order: svc_params `api_key` (Bearer), svc_params `aws_access_key_id` / `aws_secret_access_key` /
 * `aws_session_token` (SigV4), `AWS_BEARER_TOKEN_BEDROCK` (Bearer), then `AWS_ACCESS_KEY_ID` /
 * `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN` (SigV4).
 *
 * @throws AuthenticationError when no credentials are found, when only half of a key pair is set, or
 * when SigV4 has no region (`aws_region_name`, `AWS_REGION`, `AWS_DEFAULT_REGION`).
 */
export function bedrockAuth(target: ProviderTarget, env: NodeJS.ProcessEnv = target.env): BedrockAuth {
  let auth = authCache.get(target);
  if (!auth) {
    auth = resolveAuth(target, env);
    authCache.set(target, auth);
  }
  return auth;
}

/**
 * `api_base`, else the regional endpoint `https://bedrock-runtime.{region}.amazonaws.com`.
 *
 * @throws AuthenticationError when there is no `api_base` and no region to build the endpoint from.
 */
export function bedrockApiBase(target: ProviderTarget, auth: BedrockAuth): string {
  if (target.apiBase) return target.apiBase;
  if (!auth.region) throw noRegion(target);
  return `https://bedrock-runtime.${auth.region}.amazonaws.com`;
}

/**
 * What a Bedrock deployment lacks before any call, for `validate`: credentials, a region, and aws4 when
 * it signs with IAM keys (a Bedrock API key needs no package). `signer` is the package it signs with.
 */
export function bedrockProblems(target: ProviderTarget, signer: OptionalPeer<unknown> = aws4): string[] {
  let auth: BedrockAuth;
  try {
    auth = bedrockAuth(target);
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
  return problemsOf(
    () => bedrockApiBase(target, auth),
    () => auth.kind === 'sigv4' && signer.check(deploymentName(target)),
  );
}

/** The signer: the loaded module at once, else its first load (an AuthenticationError when absent). */
async function signerOf(
  auth: BedrockAuth,
  signer: OptionalPeer<{ default: Aws4 }>,
): Promise<{ default: Aws4 }> {
  const loaded = signer.module;
  if (loaded) return loaded;
  try {
    return await signer.load(deploymentName(auth.target));
  } catch (cause) {
    const { provider, model, modelId } = auth.target;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new AuthenticationError(reason, { provider, model, modelId, cause });
  }
}

/**
 * The headers to send with a POST of `body` to `url`: `Authorization: Bearer` for an API key, else a
 * SigV4 signature by aws4 (`authorization`, `x-amz-date`, `x-amz-content-sha256`, `x-amz-security-token`
 * with a session token) over exactly these bytes and headers, `host` included (the api_base's host, so
 * a local mock is signed for as well). `signer` is the package that signs.
 *
 * @throws AuthenticationError when SigV4 is needed and aws4 is not installed (its `cause` is the
 * MissingPeerError naming it).
 */
export async function authorizedHeaders(
  auth: BedrockAuth,
  url: string,
  headers: Record<string, string>,
  body: string,
  signer: OptionalPeer<{ default: Aws4 }> = aws4,
): Promise<Record<string, string>> {
  if (auth.kind === 'bearer') return { ...headers, authorization: `Bearer ${auth.token}` };
  const { sign } = (await signerOf(auth, signer)).default;
  const { host, pathname } = new URL(url);
  const signed = sign(
    {
      host,
      path: pathname,
      method: 'POST',
      service: 'bedrock',
      region: auth.region,
      headers: { ...headers, host, 'x-amz-content-sha256': createHash('sha256').update(body).digest('hex') },
      body,
      // aws4 adds a Content-Length; the HTTP client sets its own, so it is neither signed nor kept
      extraHeadersToIgnore: { 'content-length': true },
    },
    auth.keys,
  );
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) {
    const key = name.toLowerCase();
    if (key !== 'content-length') out[key] = String(value);
  }
  return out;
}
