import { ProxyError } from '../http/proxy-error.js';
import type { Caller } from './caller.js';
import { type CredentialHeaders, presentedKey } from './credentials.js';
import type { KeyCache } from './key-cache.js';
import type { TeamCache } from './team-cache.js';
import { hashKey, matchesSecret } from './virtual-key.js';

/** How callers are recognised. */
export interface AuthOptions {
  /** SHA-256 of the master key; undefined when none is configured (then only virtual keys work). */
  masterKeyDigest: Buffer | undefined;
  keys: KeyCache;
  /** The teams of keys, to refuse a blocked team's keys; without it teams are not checked. */
  teams?: TeamCache | undefined;
  now: () => number;
}

/** Recognises a request's caller, or throws the 401/403 that says why not. */
export type Authenticate = (headers: CredentialHeaders) => Promise<Caller>;

/**
 * Master key first (constant-time), then virtual keys by hash. Expired keys are 401 (the credential is
 * no longer valid); blocked keys, and keys of a blocked team, are 403 (valid, not allowed).
 */
export function createAuthenticate(options: AuthOptions): Authenticate {
  const { masterKeyDigest, keys, teams, now } = options;
  return async (headers) => {
    const presented = presentedKey(headers);
    if (presented === undefined) {
      throw new ProxyError(
        401,
        'missing_api_key',
        'No API key: send `Authorization: Bearer <key>` or `x-api-key: <key>`.',
      );
    }
    if (masterKeyDigest && matchesSecret(presented, masterKeyDigest)) return { kind: 'master' };
    const key = await keys.get(hashKey(presented));
    if (!key) throw new ProxyError(401, 'invalid_api_key', 'Invalid API key.');
    if (key.expiresAt && key.expiresAt.getTime() <= now()) {
      throw new ProxyError(401, 'expired_api_key', `This key expired at ${key.expiresAt.toISOString()}.`);
    }
    if (key.blocked) throw new ProxyError(403, 'key_blocked', 'This key is blocked.');
    if (key.teamId !== null && teams && (await teams.get(key.teamId))?.blocked) {
      throw new ProxyError(403, 'team_blocked', `This key's team \`${key.teamId}\` is blocked.`);
    }
    return { kind: 'key', key };
  };
}

/** Throws 403 unless the caller is an admin (the master key). */
export function requireAdmin(caller: Caller, route: string): void {
  if (caller.kind !== 'master') {
    throw new ProxyError(403, 'admin_only', `${route} needs the master key.`);
  }
}

/** Throws 403 when the caller's key may not call `model`. */
export function checkModelAccess(caller: Caller, model: string): void {
  if (caller.kind !== 'key' || caller.key.models.length === 0) return;
  if (caller.key.models.includes(model)) return;
  throw new ProxyError(
    403,
    'model_not_allowed',
    `This key may not call model \`${model}\`; it may call: ${caller.key.models.join(', ')}.`,
  );
}
