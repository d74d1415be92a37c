import { isPromise, type MaybePromise } from '../stores/store.js';
import type { AuthRuntime } from './auth-runtime.js';
import { asList, type ClaimReader, type Claims } from './claims.js';
import { JwtAuthError, quoted } from './errors.js';
import { syncUser } from './sync.js';
import type { UserRecord } from './types.js';

const read = (reader: ClaimReader | undefined, claims: Claims) => (reader ? reader(claims) : undefined);

/** `user_allowed_email_domain` (spec 5.3.10): exact domain after the last `@`, case-insensitive. */
export function checkEmailDomain(email: string | undefined, domain: string): void {
  const at = email?.lastIndexOf('@') ?? -1;
  if (email === undefined || at < 0 || email.slice(at + 1).toLowerCase() !== domain.toLowerCase()) {
    throw new JwtAuthError(
      'email_domain_not_allowed',
      email === undefined
        ? 'The token carries no email address'
        : `Email domain of ${quoted(email)} is not allowed`,
    );
  }
}

/**
 * The user a token names, as stored: synced (role and teams, spec 5.8) with `sync_user_role_and_teams`,
 * else looked up, and created as an `internal_user` with `user_id_upsert` when missing. Undefined when
 * the store has no such user (users need not exist unless team-based model access is enforced). At
 * once when the store answers at once (a cached user): a promise only for a lookup to wait for.
 */
export function resolveUser(
  rt: AuthRuntime,
  claims: Claims,
  userId: string,
  email: string | undefined,
  tokenTeamIds: readonly string[],
): MaybePromise<UserRecord | undefined> {
  const s = rt.settings;
  if (s.sync_user_role_and_teams) {
    const roles = asList(read(rt.fields.userRoles ?? rt.fields.roles, claims), true);
    return syncUser(
      { userId, email, role: rt.roleMap(roles), tokenTeamIds, upsert: s.user_id_upsert },
      rt.store,
    );
  }
  const user = rt.store.getUser(userId);
  if (isPromise(user)) return user.then((found) => foundOrCreated(rt, userId, email, found));
  return foundOrCreated(rt, userId, email, user);
}

/** The stored user, else (with `user_id_upsert`) a new `internal_user`, stored before it is returned. */
function foundOrCreated(
  rt: AuthRuntime,
  userId: string,
  email: string | undefined,
  user: UserRecord | undefined,
): MaybePromise<UserRecord | undefined> {
  if (user || !rt.settings.user_id_upsert) return user;
  const created: UserRecord = { user_id: userId, user_role: 'internal_user' };
  if (email !== undefined) created.user_email = email;
  const upserted = rt.store.upsertUser(created);
  return isPromise(upserted) ? upserted.then(() => created) : created;
}
