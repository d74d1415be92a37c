import type { ResponseOwner } from '../db/responses-repo.js';
import { chargedTo } from '../spend/call-ledger.js';
import { type Caller, isAdmin } from './caller.js';

/** Whom a response stored by this caller belongs to: the key, user and team its call is charged to. */
export function responseOwner(caller: Caller): ResponseOwner {
  const { key_hash, user_id, team_id } = chargedTo(caller, null);
  return { key_hash: key_hash ?? null, user_id: user_id ?? null, team_id: team_id ?? null };
}

/**
 * Whether the caller may read or continue a stored response: admins always; otherwise the key that
 * stored it; a response stored by a token without a key, the same user (or, for a token naming no
 * user, the same team). One stored by the master key only admins may read.
 */
export function mayReadResponse(caller: Caller, owner: ResponseOwner): boolean {
  if (isAdmin(caller)) return true;
  if (owner.key_hash !== null) return caller.kind === 'key' && caller.key.keyHash === owner.key_hash;
  if (caller.kind !== 'jwt') return false;
  if (owner.user_id !== null) return caller.auth.user_id === owner.user_id;
  return owner.team_id !== null && caller.auth.team_id === owner.team_id;
}
