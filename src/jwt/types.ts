import type { CheckedCredential } from './create-jwt-auth.js';
/** A value a lookup may return at once (an in-memory map) or later (a database). */
export type MaybePromise<T> = T | Promise<T>;

/** A user's role in the proxy (spec 2.4). */
export type UserRole = 'proxy_admin' | 'internal_user' | 'internal_user_view_only';

/** The internal roles `role_mappings` map token roles to (spec 5.4). */
export type InternalRole = 'team' | 'internal_user' | 'proxy_admin';

/** A team as the auth module needs it (spec 2.4). */
export interface TeamRecord {
  team_id: string;
  team_alias?: string;
  /** Model names the team may call; empty or absent means every model; `*` entries are wildcards. */
  models?: readonly string[];
  /** A blocked team is refused (POST `/team/block`). */
  blocked?: boolean;
  organization_id?: string;
}

export interface UserRecord {
  user_id: string;
  user_role?: UserRole;
  user_email?: string;
}

export interface OrganizationRecord {
  organization_id: string;
  organization_alias?: string;
}

/** A JWT-to-virtual-key mapping (spec 2.5). */
export interface KeyMappingRecord {
  id: string;
  jwt_claim_name: string;
  jwt_claim_value: string;
  /** The virtual key the request proceeds with (a directory that stores only hashes gives `key_hash`). */
  key?: string;
  /** The hash of that key (SHA-256, hex), for directories that never store the key itself. */
  key_hash?: string;
  description?: string;
  is_active: boolean;
}

/**
 * The lookups and writes authentication needs, so that a server backs them with its own database. Each
 * method may answer synchronously or with a Promise. A method that throws (or rejects) refuses the
 * request with 503: a store that cannot be asked never lets a request through.
 * {@link MemoryJwtDirectory} implements it in memory.
 */
export interface JwtAuthDeps {
  getTeam(teamId: string): MaybePromise<TeamRecord | undefined>;
  /** Every team whose `team_alias` is `alias` (several are an error the caller sees). */
  findTeamsByAlias(alias: string): MaybePromise<readonly TeamRecord[]>;
  /** Every organization whose `organization_alias` is `alias`. */
  findOrganizationsByAlias(alias: string): MaybePromise<readonly OrganizationRecord[]>;
  getUser(userId: string): MaybePromise<UserRecord | undefined>;
  /** Creates the user, or updates the given fields of an existing one. */
  upsertUser(user: UserRecord): MaybePromise<void>;
  /** Creates the team when missing (`team_id_upsert`). */
  upsertTeam(team: TeamRecord): MaybePromise<void>;
  /** The ids of the teams the user is a member of. */
  getUserTeamIds(userId: string): MaybePromise<readonly string[]>;
  addTeamMember(teamId: string, userId: string): MaybePromise<void>;
  removeTeamMember(teamId: string, userId: string): MaybePromise<void>;
  /** The mapping for exactly this claim name and value, active or not. */
  findKeyMapping(claimName: string, claimValue: string): MaybePromise<KeyMappingRecord | undefined>;
}

/** Request headers as Node (`IncomingHttpHeaders`, lower-case names) or fetch (`Headers`) give them. */
export type HeadersLike =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** What `authenticate` looks at. */
export interface AuthRequest {
  headers: HeadersLike;
  /** The request target as received (`req.url`): path and query; the query is ignored. */
  path: string;
  /** The model asked for (the body's `model`); on Google-style routes it is read from the path when absent. */
  model?: string | undefined;
  /** The HTTP method; a view-only user may only read (GET, HEAD). */
  method?: string | undefined;
  /**
   * What `checkCredential` resolved to for this request (before its body was read): its token is
   * not verified, nor `custom_validate` run, again; everything else (model, method, team header) is
   * read from this request. Ignored unless checked by the same auth on the same token and path, and
   * once its token has expired; a check is used once.
   */
  checked?: CheckedCredential | undefined;
}

/** Who the request is, as `authenticate` resolved it. */
export type AuthKind = 'admin' | 'team' | 'internal_user' | 'end_user' | 'virtual_key' | 'public';

/**
 * The resolved identity of a request. Ids are the ones spend is tracked against; `allowed_models` is
 * what the token may call (undefined: no restriction came from the token, the team or the role).
 */
export interface AuthContext {
  kind: AuthKind;
  /** How the credentials were checked: a verified JWT, the identity provider's UserInfo or OAuth2 token info. */
  via: 'jwt' | 'userinfo' | 'oauth2' | 'none';
  user_id?: string;
  user_email?: string;
  user_role?: UserRole;
  /** The team the request is charged to (from the token, `x-svc-team-id`, or the first with access). */
  team_id?: string;
  /** Every team id the token names, in token order. */
  team_ids?: readonly string[];
  org_id?: string;
  end_user_id?: string;
  /** The internal role `role_mappings` gave the token (`enforce_rbac`). */
  internal_role?: InternalRole;
  allowed_models?: readonly string[];
  /** Route groups and paths this identity may use (empty for `virtual_key`: the key decides). */
  allowed_routes: readonly string[];
  /** The mapped virtual key (`kind: 'virtual_key'`): proceed as if the caller had sent it. */
  virtual_key?: string;
  /** The mapped key's hash, when the mapping carries one (a database directory stores only hashes). */
  virtual_key_hash?: string;
  key_mapping_id?: string;
  scopes: readonly string[];
  roles: readonly string[];
  /** The claims the decision was made on: the verified payload, with UserInfo claims where it had none. */
  claims: Readonly<Record<string, unknown>>;
}
