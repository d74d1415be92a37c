import { isPromise, MAX_MODEL_CHARS } from '@svc/router';
import type { CheckedCredential } from '@svc/router/jwt';
import { ProxyError } from '../http/proxy-error.js';
import { type Caller, isAdmin, type KeyIdentity } from './caller.js';
import { presentedKey } from './credentials.js';
import {
  isForJwt,
  type JwtGate,
  type JwtRequestFacts,
  jwtCaller,
  jwtRequest,
  looksLikeJwt,
} from './jwt-caller.js';
import type { KeyCache } from './key-cache.js';
import type { TeamCache, TeamStatus } from './team-cache.js';
import { hashKey, sameDigest } from './virtual-key.js';

/** How callers are recognised. */
export interface AuthOptions {
  /** The master key; undefined when none is configured (then only virtual keys work). Its digest is kept. */
  masterKey: string | undefined;
  keys: KeyCache;
  /** The teams of keys, to refuse a blocked team's keys; without it teams are not checked. */
  teams?: TeamCache | undefined;
  now: () => number;
  /** JWT auth (`enable_jwt_auth`); undefined: every bearer value is a virtual key. */
  jwt?: JwtGate | undefined;
}

/** What authentication reads of a request: its headers, path and method (a fastify request has them). */
export type AuthInput = JwtRequestFacts;

/**
 * Recognises a request's caller, or throws the 401/403 that says why not. `model` is the model the
 * request asks for (the body's `model`), so JWT model access is decided with the identity.
 */
export interface Authenticate {
  /**
   * The caller, at once when it is known without a wait (a master key, or a virtual key whose record
   * and team are in memory); a refusal is always a rejected promise.
   */
  (request: AuthInput, model?: string): Caller | Promise<Caller>;
  /**
   * What can be decided before the request's body is read (the body names the model): a master or
   * virtual key's caller, remembered for the request so that its route does not look it up again; for
   * a JWT, that it verifies and passes `custom_validate` (remembered too: its identity, routes and
   * models are decided once, by the route, with the model). Rejects as the call itself does;
   * undefined when decided at once (the caller known, without a wait).
   */
  beforeBody(request: AuthInput): Promise<void> | undefined;
}

// the master key's caller: one for every request (callers are read, never changed)
const MASTER: Caller = Object.freeze({ kind: 'master' });
const ignore = (): void => undefined;

/**
 * Master key first (constant-time; a JWT-shaped value is not compared with a master key of another
 * shape); then, with JWT auth on, JWT-shaped bearer values go to the JWT module; everything else is a
 * virtual key, by hash (a token mapped to a key too). Expired keys are 401 (the credential is no
 * longer valid); blocked keys, and keys of a blocked team, are 403 (valid, not allowed). A key's
 * team's model list comes along (`teamModels`): it binds the key too.
 */
export function createAuthenticate(options: AuthOptions): Authenticate {
  const { keys, teams, now, jwt } = options;
  const masterKeyDigest = options.masterKey === undefined ? undefined : hashKey(options.masterKey);
  // A bearer value shaped as a JWT cannot be a master key that is not: such values skip the master key's
  // digest (a SHA-256 of the whole token; the JWT module hashes the token for its own cache).
  // Through timing the branch reveals the value's shape, which its sender knows, and one fixed
  // bit: whether the master key is shaped as a JWT (never its content or length).
  const masterLooksLikeJwt = options.masterKey !== undefined && looksLikeJwt(options.masterKey);
  // A key and its team found in memory (the common request) give the caller at once: each async
  // step on a warm lookup cost a promise, about eight a request.
  const ofTeam = (key: KeyIdentity, team: TeamStatus | null | undefined): Caller => {
    if (team?.blocked) {
      throw new ProxyError(403, 'team_blocked', `This key's team \`${key.teamId}\` is blocked.`);
    }
    return team && team.models.length > 0
      ? { kind: 'key', key, teamModels: team.models }
      : { kind: 'key', key };
  };
  const ofKey = (key: KeyIdentity | null | undefined): Caller | Promise<Caller> => {
    if (!key) throw new ProxyError(401, 'invalid_api_key', 'Invalid API key.');
    if (key.expiresAt && key.expiresAt.getTime() <= now()) {
      throw new ProxyError(401, 'expired_api_key', `This key expired at ${key.expiresAt.toISOString()}.`);
    }
    if (key.blocked) throw new ProxyError(403, 'key_blocked', 'This key is blocked.');
    if (key.teamId === null || !teams) return ofTeam(key, undefined);
    const team = teams.cached(key.teamId);
    return team === undefined ? teams.get(key.teamId).then((read) => ofTeam(key, read)) : ofTeam(key, team);
  };
  /** A virtual key's caller; a refusal found at once is thrown (its callers make it a rejection). */
  const asKey = (keyHash: string): Caller | Promise<Caller> => {
    const key = keys.cached(keyHash);
    return key === undefined ? keys.get(keyHash).then(ofKey) : ofKey(key);
  };
  // a request authenticated before its body was read (authenticateFirst) is not looked up again by
  // its route; a JWT's caller is decided by the route alone, with the model the body names
  const found = new WeakMap<AuthInput, Caller | Promise<Caller>>();
  const remembered = (request: AuthInput, caller: Caller | Promise<Caller>): Caller | Promise<Caller> => {
    found.set(request, caller);
    return caller;
  };
  /** The caller of a master or virtual key; undefined for a credential the JWT module decides. */
  const keyCaller = (request: AuthInput, presented: string): Caller | Promise<Caller> | undefined => {
    if (jwt && !masterLooksLikeJwt && looksLikeJwt(presented)) return undefined;
    // one hash serves both: the master key comparison and the key lookup
    const digest = hashKey(presented);
    if (masterKeyDigest && sameDigest(digest, masterKeyDigest)) return remembered(request, MASTER);
    if (jwt && isForJwt(jwt, presented)) return undefined;
    let caller: Caller | Promise<Caller>;
    try {
      caller = asKey(digest);
    } catch (error) {
      caller = Promise.reject(error);
    }
    return remembered(request, caller);
  };
  // a JWT checked before its body was read: verified and validated once, and the value it was
  // presented as (the route need not find it among the headers again, nor tell it from a key)
  const checkedTokens = new WeakMap<AuthInput, { presented: string; checked: CheckedCredential }>();
  const authenticate = ((request, model) => {
    const known = found.get(request);
    if (known) return known;
    const early = checkedTokens.get(request);
    if (early) return jwtCaller(jwt!, request, early.presented, model, asKey, early.checked);
    try {
      const presented = presentedOrThrow(request);
      return keyCaller(request, presented) ?? jwtCaller(jwt!, request, presented, model, asKey);
    } catch (error) {
      return Promise.reject(error);
    }
  }) as Authenticate;
  authenticate.beforeBody = (request) => {
    try {
      const presented = presentedOrThrow(request);
      const caller = keyCaller(request, presented);
      if (caller) return isPromise(caller) ? caller.then(ignore) : undefined;
      return jwt!.auth.checkCredential(jwtRequest(request, presented)).then((checked) => {
        checkedTokens.set(request, { presented, checked });
      });
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return authenticate;
}

function presentedOrThrow(request: AuthInput): string {
  const presented = presentedKey(request.headers);
  if (presented === undefined) {
    throw new ProxyError(
      401,
      'missing_api_key',
      'No API key: send `Authorization: Bearer <key>` or `x-api-key: <key>`.',
    );
  }
  return presented;
}

/**
 * The body's `model` when it is a string of at most `MAX_MODEL_CHARS`: what a route passes to
 * `authenticate` (a longer one is refused when the call is admitted, naming the field).
 */
export function bodyModel(body: unknown): string | undefined {
  const model = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' && model.length <= MAX_MODEL_CHARS ? model : undefined;
}

/** Throws 403 unless the caller is an admin (the master key, or an admin JWT). */
export function requireAdmin(caller: Caller, route: string): void {
  if (!isAdmin(caller)) {
    throw new ProxyError(403, 'admin_only', `${route} needs the master key or an admin token.`);
  }
}
