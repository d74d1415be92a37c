import { isPromise, type MaybePromise } from '../stores/store.js';
import { type AuthRuntime, buildAuthRuntime } from './auth-runtime.js';
import { authorize, type RequestFacts } from './authorize.js';
import type { Claims } from './claims.js';
import { JwtAuthError, quoted } from './errors.js';
import { bearerToken, headerValue } from './headers.js';
import { resolveIdentity } from './identity.js';
import { MemoryJwtDirectory } from './memory-directory.js';
import { parseJwtSettings } from './parse-settings.js';
import { normalizePath } from './path.js';
import type { JwtAuthSettings } from './settings-schema.js';
import { msUntilExp } from './ttl-cache.js';
import type { AuthContext, AuthRequest, JwtAuthDeps } from './types.js';
import { decodeCompact, MAX_TOKEN_LENGTH } from './verify.js';

declare const CHECKED: unique symbol;

/**
 * A credential `checkCredential` checked, for `authenticate` (`AuthRequest.checked`) on the same
 * request: opaque.
 */
export type CheckedCredential = { readonly [CHECKED]: true };

/** What `createJwtAuth` returns. */
export interface JwtAuth {
  /**
   * Authenticates one request: resolves to its {@link AuthContext}, or rejects with JwtAuthError
   * (401 invalid credentials, 403 not allowed, 503 identity provider or store unavailable).
   */
  authenticate(request: AuthRequest): Promise<AuthContext>;
  /**
   * Checks the request's credential alone, as a server does before it reads a request's body (where
   * the model is): a public route passes; otherwise the bearer token must verify (signature, issuer,
   * audience, expiry) and pass `custom_validate`, or resolve through OAuth2 or UserInfo, else it
   * rejects as `authenticate` would. Key mappings, teams, routes and models are left to
   * `authenticate`: pass it what this resolves to as `checked`, and neither the token nor
   * `custom_validate` is checked again.
   */
  checkCredential(request: Omit<AuthRequest, 'model' | 'checked'>): Promise<CheckedCredential>;
  /** Drops cached key mappings, UserInfo and OAuth2 answers (after a mapping was changed, say). */
  clearCaches(): void;
}

const TEAM_HEADER = 'x-svc-team-id';

const validateFailed = (cause?: unknown): JwtAuthError =>
  new JwtAuthError(
    'custom_validate_failed',
    'Invalid JWT token',
    cause === undefined ? undefined : { cause },
  );

function validAnswer(ok: unknown): void {
  if (ok === false) throw validateFailed();
}

/**
 * Runs `custom_validate` on a verified payload: nothing to wait for when none is set or it answers at
 * once (a promise only when it returns one), so that the common call pays no promise for it.
 */
function runCustomValidate(rt: AuthRuntime, payload: Claims): void | Promise<void> {
  const validate = rt.settings.custom_validate;
  if (!validate) return;
  let ok: unknown;
  let pending: boolean;
  try {
    ok = validate(payload);
    // inside the try: an answer whose `then` throws is a failed validation too
    pending = isPromise(ok);
  } catch (cause) {
    throw validateFailed(cause);
  }
  if (!pending) return validAnswer(ok);
  return Promise.resolve(ok).then(validAnswer, (cause: unknown) => {
    throw validateFailed(cause);
  });
}

/** Whether a verified JWT lacks the identity claims UserInfo should supply (spec 5.9). */
function lacksIdentity(rt: AuthRuntime, claims: Claims): boolean {
  const { userId, userEmail, userRoles } = rt.fields;
  return [userId, userEmail, userRoles].some(
    (reader) => reader !== undefined && reader(claims) === undefined,
  );
}

async function viaOAuth2(rt: AuthRuntime, token: string, req: RequestFacts): Promise<AuthContext> {
  const identity = await rt.oauth2!.validate(token);
  const base = {
    via: 'oauth2' as const,
    scopes: [],
    roles: identity.user_role !== undefined ? [identity.user_role] : [],
    claims: identity.claims,
    ...(identity.user_id !== undefined ? { user_id: identity.user_id } : {}),
  };
  if (identity.user_role === 'proxy_admin')
    return authorize(rt, req, { ...base, kind: 'admin' }, undefined, []);
  if (identity.team_id !== undefined) {
    const team = await rt.store.getTeam(identity.team_id);
    if (team?.blocked) throw new JwtAuthError('team_blocked', `Team ${quoted(team.team_id)} is blocked`);
    const ctx = { ...base, kind: 'team' as const, team_id: identity.team_id, team_ids: [identity.team_id] };
    return authorize(rt, req, ctx, team, []);
  }
  if (identity.user_id !== undefined)
    return authorize(rt, req, { ...base, kind: 'internal_user' }, undefined, []);
  throw new JwtAuthError('no_identity', 'The OAuth2 token identifies no admin, team or user');
}

/** What identity resolution and authorization read of `request`, its path normalised. */
function requestFacts(
  request: AuthRequest,
  path: string,
  llm: ReturnType<AuthRuntime['routes']['llm']>,
): RequestFacts {
  return {
    path,
    model: request.model ?? llm?.params.model_name,
    method: request.method,
    teamHeader: headerValue(request.headers, TEAM_HEADER)?.trim() || undefined,
  };
}

/** A request's credential once checked, before `custom_validate` and the identity's rules. */
type Credential =
  | { kind: 'public' }
  | { kind: 'oauth2'; token: string; req: RequestFacts }
  | { kind: 'userinfo'; token: string; claims: Claims; req: RequestFacts }
  | { kind: 'jwt'; token: string; payload: Claims; req: RequestFacts };

const PUBLIC: Credential = { kind: 'public' };

/**
 * Checks what the request presents: a public route needs nothing; otherwise the bearer token must
 * verify (signature, issuer, audience, expiry), or resolve through OAuth2 or UserInfo. Each of these
 * is remembered for a while, so checking a credential again (`checkCredential`, then `authenticate`)
 * costs a lookup. A promise only when something must be waited for (a signature to verify, UserInfo
 * to ask); throws what refuses the request at once.
 */
function credential(rt: AuthRuntime, request: AuthRequest): Credential | Promise<Credential> {
  const path = normalizePath(request.path);
  if (path === undefined) throw new JwtAuthError('path_not_allowed', 'The request path is not allowed');
  if (rt.routes.public(path)) return PUBLIC;
  const token = bearerToken(request.headers);
  if (token === undefined) throw new JwtAuthError('missing_token', 'No bearer token was sent');
  if (token.length > MAX_TOKEN_LENGTH) {
    throw new JwtAuthError('token_too_large', `The bearer token is larger than ${MAX_TOKEN_LENGTH} bytes`);
  }
  const llm = rt.routes.llm(path);
  const req = requestFacts(request, path, llm);
  // a token verified a moment ago (a client sends the same one on every call) is not decoded again
  const known = rt.verify.known?.(token) as Claims | undefined;
  const parts = known ? undefined : decodeCompact(token);

  // OAuth2 (spec 5.6) on model and info routes: opaque tokens in global mode, and JWTs a routing
  // override picks (by unverified claims: they choose the path, the token info endpoint then decides)
  if (rt.oauth2 && (llm || rt.routes.info(path))) {
    const claims = known ?? parts?.claims;
    const picked = known || parts ? rt.overrideMatches(claims ?? {}) : rt.settings.enable_oauth2_auth;
    if (picked) return { kind: 'oauth2', token, req };
  }

  if (!known && (!parts || rt.keySets.size === 0)) {
    if (rt.userinfo) {
      return rt.userinfo.claims(token).then((claims) => ({ kind: 'userinfo', token, claims, req }));
    }
    if (parts) throw new JwtAuthError('issuer_not_allowed', 'No key set is configured to verify JWTs');
    throw new JwtAuthError('not_a_jwt', 'The bearer token is not a JWT');
  }
  if (known) return { kind: 'jwt', token, payload: known, req };
  return rt.verify(token, parts).then((payload) => ({ kind: 'jwt', token, payload: payload as Claims, req }));
}

/** What a `CheckedCredential` stands for: the credential, and the request facts it was checked on. */
interface Checked {
  rt: AuthRuntime;
  token: string | undefined;
  path: string;
  credential: Credential;
}

/** Makes handles: only this module holds it, so no caller can make one (see `CheckedHandle`). */
const MINT: unique symbol = Symbol('CheckedHandle');
/** What a handle stands for, while unused; undefined for anything that is not one. */
let peekChecked: (handle: unknown) => Checked | undefined;
/** Empties a handle: it is used once. */
let useChecked: (handle: unknown) => void;

/**
 * A `CheckedCredential`: what it stands for is a private field (a class's own brand check, instead of
 * a WeakMap from handles: no hash table entry per request for the collector to sweep). Only this
 * module can read it (the functions above, set in the class's static block, are reachable from no
 * handle) or make one (the constructor wants `MINT`); a handle is frozen and shows nothing.
 */
class CheckedHandle {
  #checked: Checked | undefined;

  constructor(mint: typeof MINT, checked: Checked) {
    if (mint !== MINT) throw new TypeError('A CheckedCredential comes from checkCredential only');
    this.#checked = checked;
    Object.freeze(this);
  }

  static {
    peekChecked = (handle) =>
      typeof handle === 'object' && handle !== null && #checked in handle
        ? (handle as CheckedHandle).#checked
        : undefined;
    useChecked = (handle) => {
      (handle as CheckedHandle).#checked = undefined;
    };
  }
}

// Not async functions: a token verified a moment ago, with no `custom_validate` or one that answers at
// once, is checked with no promise but the one returned (each async step cost a promise and a turn)
function checkCredential(rt: AuthRuntime, request: AuthRequest): Promise<CheckedCredential> {
  try {
    const found = credential(rt, request);
    if (isPromise(found)) return found.then((checked) => validated(rt, request, checked));
    return Promise.resolve(validated(rt, request, found));
  } catch (err) {
    return Promise.reject(err);
  }
}

/** The handle of a credential once `custom_validate` (or the OAuth2 token info endpoint) passed it. */
function validated(
  rt: AuthRuntime,
  request: AuthRequest,
  checked: Credential,
): CheckedCredential | Promise<CheckedCredential> {
  const pending =
    checked.kind === 'jwt'
      ? runCustomValidate(rt, checked.payload)
      : // the token info endpoint's answer is remembered: `authenticate` asks it once
        checked.kind === 'oauth2'
        ? rt.oauth2!.validate(checked.token)
        : undefined;
  if (pending) return pending.then(() => handleOf(rt, request, checked));
  return handleOf(rt, request, checked);
}

function handleOf(rt: AuthRuntime, request: AuthRequest, checked: Credential): CheckedCredential {
  const handle = new CheckedHandle(MINT, {
    rt,
    token: checked.kind === 'public' ? bearerToken(request.headers) : checked.token,
    path: request.path,
    credential: checked,
  });
  return handle as unknown as CheckedCredential;
}

/**
 * The credential `request.checked` stands for, with `request`'s own facts (its model, method, team
 * header); undefined unless this auth checked it, on this request's token and path, and its token has
 * not expired since. A check is used once.
 */
function alreadyChecked(rt: AuthRuntime, request: AuthRequest): Credential | undefined {
  const checked = request.checked === undefined ? undefined : peekChecked(request.checked);
  if (checked?.rt !== rt || checked.path !== request.path) return undefined;
  if (checked.token !== bearerToken(request.headers)) return undefined;
  useChecked(request.checked);
  const { credential } = checked;
  if (credential.kind === 'public') return credential;
  if (credential.kind === 'jwt' && msUntilExp(credential.payload) <= 0) return undefined;
  const path = credential.req.path;
  return { ...credential, req: requestFacts(request, path, rt.routes.llm(path)) };
}

function authenticate(rt: AuthRuntime, request: AuthRequest): Promise<AuthContext> {
  try {
    const reused = alreadyChecked(rt, request);
    if (reused) return Promise.resolve(contextOf(rt, reused, true));
    const found = credential(rt, request);
    if (isPromise(found)) return found.then((checked) => contextOf(rt, checked, false));
    return Promise.resolve(contextOf(rt, found, false));
  } catch (err) {
    return Promise.reject(err);
  }
}

/** The auth context of a checked credential; `validated`: `custom_validate` passed it already. */
function contextOf(
  rt: AuthRuntime,
  checked: Credential,
  validated: boolean,
): AuthContext | Promise<AuthContext> {
  switch (checked.kind) {
    case 'public':
      return {
        kind: 'public',
        via: 'none',
        scopes: [],
        roles: [],
        claims: {},
        allowed_routes: rt.settings.public_allowed_routes,
      };
    case 'oauth2':
      return viaOAuth2(rt, checked.token, checked.req);
    case 'userinfo':
      return resolveIdentity(rt, checked.claims, 'userinfo', checked.req);
    case 'jwt':
      return viaJwt(rt, checked.token, checked.payload, checked.req, validated);
  }
}

function viaJwt(
  rt: AuthRuntime,
  token: string,
  payload: Claims,
  req: RequestFacts,
  validated: boolean,
): AuthContext | Promise<AuthContext> {
  const pending = validated ? undefined : runCustomValidate(rt, payload);
  if (pending) return pending.then(() => jwtIdentity(rt, token, payload, req));
  return jwtIdentity(rt, token, payload, req);
}

/** A verified, validated JWT's identity: its key mapping, else its claims (UserInfo filling gaps). */
function jwtIdentity(
  rt: AuthRuntime,
  token: string,
  payload: Claims,
  req: RequestFacts,
): MaybePromise<AuthContext> {
  if (!rt.keyMappings && !(rt.userinfo && lacksIdentity(rt, payload)))
    return resolveIdentity(rt, payload, 'jwt', req);
  return mappedOrFilled(rt, token, payload, req);
}

async function mappedOrFilled(
  rt: AuthRuntime,
  token: string,
  payload: Claims,
  req: RequestFacts,
): Promise<AuthContext> {
  if (rt.keyMappings) {
    const mapping = await rt.keyMappings.find(payload);
    if (mapping) {
      return {
        kind: 'virtual_key',
        via: 'jwt',
        ...(mapping.key !== undefined && { virtual_key: mapping.key }),
        ...(mapping.key_hash !== undefined && { virtual_key_hash: mapping.key_hash }),
        key_mapping_id: mapping.id,
        scopes: [],
        roles: [],
        claims: payload,
        allowed_routes: [],
      };
    }
  }

  let claims = payload;
  if (rt.userinfo && lacksIdentity(rt, payload)) {
    // the token's own (verified) claims win; UserInfo only fills what it lacks
    claims = { ...(await rt.userinfo.claims(token, msUntilExp(payload))), ...payload };
  }
  return resolveIdentity(rt, claims, 'jwt', req);
}

/**
 * JWT/OIDC authentication for a server of your own (express, fastify, hono, node:http) and for the
 * proxy. `settings` is the `svc_jwtauth` table (spec 5.2) plus `public_key_url` / `audience` (else
 * `JWT_PUBLIC_KEY_URL` / `JWT_AUDIENCE` from the environment); it is validated here, and a typo throws
 * ConfigError with the closest setting ("did you mean"). `deps` backs the team, user, organization and
 * key-mapping lookups with your database; {@link MemoryJwtDirectory} (the default) keeps them in memory.
 * `options.env` is the environment those fallbacks and `os.environ/NAME` references read (a server that
 * merged its config's `environment_variables` passes that); default `process.env`.
 *
 * Nothing is fetched until the first request; once the identity provider's keys are fetched, verifying
 * a token makes no network call until `public_key_ttl` passes.
 *
 * @example
 * const auth = createJwtAuth({ public_key_url: 'https://idp.example.com/.well-known/openid-configuration',
 *   audience: 'api://gateway', team_ids_jwt_field: 'groups', user_id_jwt_field: 'sub' }, directory);
 * const ctx = await auth.authenticate({ headers: req.headers, path: req.url, model: body.model });
 * // ctx.kind === 'team', ctx.team_id === 'search', ctx.user_id === 'alice'
 */
export function createJwtAuth(
  settings: JwtAuthSettings = {},
  deps: JwtAuthDeps = new MemoryJwtDirectory(),
  options: { env?: NodeJS.ProcessEnv } = {},
): JwtAuth {
  const rt = buildAuthRuntime(parseJwtSettings(settings, options.env), deps);
  return {
    authenticate: (request) => authenticate(rt, request),
    checkCredential: (request) => checkCredential(rt, request),
    clearCaches() {
      rt.keyMappings?.clear();
      rt.userinfo?.clear();
      rt.oauth2?.clear();
    },
  };
}
