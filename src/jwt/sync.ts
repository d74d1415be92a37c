import type { ResolvedJwtSettings } from './settings-schema.js';
import type { AuthStore } from './store.js';
import type { UserRecord, UserRole } from './types.js';
import { wildcard } from './wildcard.js';

/**
 * The role `jwt_litellm_role_map` gives a token's roles: the first entry (in settings order) whose
 * `jwt_role` pattern (fnmatch: `*`, `?`) matches one of them; `internal_user` when none does, so a role
 * taken away at the identity provider is taken away here on the next request.
 */
export function createRoleMap(
  entries: ResolvedJwtSettings['jwt_litellm_role_map'],
): (roles: readonly string[]) => UserRole {
  const compiled = entries.map((e) => ({ matches: wildcard(e.jwt_role), role: e.litellm_role }));
  return (roles) => compiled.find((e) => roles.some(e.matches))?.role ?? 'internal_user';
}

export interface SyncInput {
  userId: string;
  email: string | undefined;
  /** The role the token's roles map to. */
  role: UserRole;
  /** Team ids the token names. */
  tokenTeamIds: readonly string[];
  /** Create the user when missing (`user_id_upsert`). */
  upsert: boolean;
}

/**
 * Role and team sync (spec 5.8), run on every authenticated request so that no grant outlives the
 * token that carried it: the stored role is set to the token's; the user joins every team of the token
 * that exists and leaves every team the token no longer names. A user not in the store is created only
 * with `user_id_upsert`; otherwise nothing is written. Returns the user as stored afterwards.
 */
export async function syncUser(input: SyncInput, store: AuthStore): Promise<UserRecord | undefined> {
  let user = await store.getUser(input.userId);
  if (!user && !input.upsert) return undefined;
  if (!user || user.user_role !== input.role) {
    const next: UserRecord = { user_id: input.userId, user_role: input.role };
    if (!user && input.email !== undefined) next.user_email = input.email;
    await store.upsertUser(next);
    user = { ...user, ...next };
  }
  const wanted = new Set<string>();
  for (const teamId of input.tokenTeamIds) if (await store.getTeam(teamId)) wanted.add(teamId);
  const current = new Set(await store.getUserTeamIds(input.userId));
  for (const teamId of wanted) if (!current.has(teamId)) await store.addTeamMember(teamId, input.userId);
  for (const teamId of current)
    if (!input.tokenTeamIds.includes(teamId)) await store.removeTeamMember(teamId, input.userId);
  return user;
}
