import { isPromise, type MaybePromise } from '../stores/store.js';
import type { AuthRuntime } from './auth-runtime.js';
import { authorize, type RequestFacts, type ResolvedIdentity } from './authorize.js';
import { asList, asString, type ClaimReader, type Claims, scopesOf } from './claims.js';
import { JwtAuthError, quoted } from './errors.js';
import { resolveOrg } from './organizations.js';
import { selectTeam, type TeamSelection, tokenTeamIds } from './teams.js';
import type { AuthContext, AuthKind, InternalRole, TeamRecord, UserRecord } from './types.js';
import { checkEmailDomain, resolveUser } from './users.js';

const read = (reader: ClaimReader | undefined, claims: Claims) => (reader ? reader(claims) : undefined);

/** What the claims say about the caller, before any lookup. */
interface TokenIdentity {
  scopes: string[];
  roles: string[];
  rbacRole: InternalRole | undefined;
  teamId: string | undefined;
  teamIds: string[];
  tokenTeamIds: string[];
  teamAlias: string | undefined;
  userId: string | undefined;
  email: string | undefined;
  endUserId: string | undefined;
}

function readTokenIdentity(rt: AuthRuntime, claims: Claims): TokenIdentity {
  const s = rt.settings;
  const roles = asList(read(rt.fields.roles, claims), true);
  const rbacRole = s.enforce_rbac ? rt.rbac.internalRole(roles) : undefined;
  // the object id is a team id when the role says team, else the user id (spec 5.2)
  const objectId = asString(read(rt.fields.objectId, claims));
  const teamId =
    rbacRole === 'team' && objectId !== undefined ? objectId : asString(read(rt.fields.teamId, claims));
  const userId =
    objectId !== undefined && rbacRole !== 'team' ? objectId : asString(read(rt.fields.userId, claims));
  const emailClaim = rt.fields.userEmail
    ? rt.fields.userEmail(claims)
    : s.user_allowed_email_domain
      ? claims.email
      : undefined;
  const teamIds = asList(read(rt.fields.teamIds, claims));
  return {
    scopes: scopesOf(claims),
    roles,
    rbacRole,
    teamId,
    teamIds,
    tokenTeamIds: tokenTeamIds(teamId, teamIds),
    teamAlias: asString(read(rt.fields.teamAlias, claims)),
    userId,
    email: asString(emailClaim),
    endUserId: asString(read(rt.fields.endUserId, claims)),
  };
}

/**
 * With `enforce_rbac`, the token's roles decide who it is: a token none of whose roles `role_mappings`
 * maps, and that is not admin by scope, is refused (403), whatever team, user or object id it carries;
 * refused before any lookup, so it creates no user or team either (CONTRACT 6.4).
 */
function checkRoleMapped(rt: AuthRuntime, id: TokenIdentity): void {
  const s = rt.settings;
  if (!s.enforce_rbac || id.rbacRole !== undefined || id.scopes.includes(s.admin_jwt_scope)) return;
  const held =
    id.roles.length === 0
      ? 'The token holds no role'
      : `None of the token's roles (${id.roles.slice(0, 5).map(quoted).join(', ')}${id.roles.length > 5 ? ', ...' : ''}) is in role_mappings`;
  throw new JwtAuthError('role_not_mapped', `${held}; enforce_rbac admits only mapped roles`);
}

/** The kind of a non-admin identity, or the refusal that says why it has none. */
function kindOf(
  rt: AuthRuntime,
  id: TokenIdentity,
  team: TeamRecord | undefined,
  refusal: JwtAuthError | undefined,
): AuthKind {
  if (id.rbacRole === 'internal_user' && id.userId !== undefined) return 'internal_user';
  if (team) return 'team';
  if (id.userId !== undefined) return 'internal_user';
  if (id.endUserId !== undefined && !rt.settings.enforce_rbac) return 'end_user';
  if (refusal) throw refusal;
  if (rt.settings.enforce_rbac) {
    throw new JwtAuthError('role_not_mapped', 'The token maps to no team, user or admin role (enforce_rbac)');
  }
  throw new JwtAuthError('no_identity', 'The token identifies no admin, team, user or end user');
}

/**
 * Resolves verified claims (a JWT's, a UserInfo answer's) to an auth context, then authorizes the route
 * and the model. Order: what the claims say (with `enforce_rbac`, a mapped role or the admin scope);
 * the email domain; the user (synced or upserted as configured) and its stored role; the organization;
 * admin (scope, `proxy_admin` role mapping or stored role); the team; the kind. Each lookup is waited
 * for only when the store must make it: with every record cached, the context comes at once (no
 * promise, no turn of promise jobs per step); what refuses the request is then thrown.
 */
export function resolveIdentity(
  rt: AuthRuntime,
  claims: Claims,
  via: AuthContext['via'],
  req: RequestFacts,
): MaybePromise<AuthContext> {
  const s = rt.settings;
  const id = readTokenIdentity(rt, claims);
  checkRoleMapped(rt, id);
  if (s.user_allowed_email_domain && (id.email !== undefined || id.userId !== undefined)) {
    checkEmailDomain(id.email, s.user_allowed_email_domain);
  }
  return new IdentityResolution(rt, claims, via, req, id).start();
}

/**
 * One identity's lookups in order (user, organization, team), each step taken at once when the one
 * before answered at once, else when its promise settles.
 */
class IdentityResolution {
  constructor(
    private readonly rt: AuthRuntime,
    private readonly claims: Claims,
    private readonly via: AuthContext['via'],
    private readonly req: RequestFacts,
    private readonly id: TokenIdentity,
  ) {}

  start(): MaybePromise<AuthContext> {
    const { rt, claims, id } = this;
    const user =
      id.userId !== undefined ? resolveUser(rt, claims, id.userId, id.email, id.tokenTeamIds) : undefined;
    if (isPromise(user)) return user.then((found) => this.#withUser(found));
    return this.#withUser(user);
  }

  /** The organization next. */
  #withUser(user: UserRecord | undefined): MaybePromise<AuthContext> {
    const org = resolveOrg(this.rt, this.claims);
    if (isPromise(org)) return org.then((orgId) => this.#withOrg(user, orgId));
    return this.#withOrg(user, org);
  }

  /** An admin now; anyone else once the team is chosen. */
  #withOrg(user: UserRecord | undefined, orgId: string | undefined): MaybePromise<AuthContext> {
    const { rt, req, id } = this;
    const s = rt.settings;
    // built by assignment, never by spreading: a spread followed by more properties makes V8 build a
    // dictionary object, a visible cost on every JWT-authenticated call
    const identity: ResolvedIdentity = {
      via: this.via,
      scopes: id.scopes,
      roles: id.roles,
      claims: this.claims,
      kind: 'admin',
    };
    if (id.userId !== undefined) identity.user_id = id.userId;
    if (id.email !== undefined) identity.user_email = id.email;
    if (user?.user_role !== undefined) identity.user_role = user.user_role;
    if (orgId !== undefined) identity.org_id = orgId;
    if (id.endUserId !== undefined) identity.end_user_id = id.endUserId;
    if (id.rbacRole !== undefined) identity.internal_role = id.rbacRole;
    if (id.tokenTeamIds.length > 0) identity.team_ids = id.tokenTeamIds;
    const isAdmin =
      id.scopes.includes(s.admin_jwt_scope) ||
      id.rbacRole === 'proxy_admin' ||
      user?.user_role === 'proxy_admin';
    if (isAdmin) return authorize(rt, req, identity, undefined, id.scopes);

    const selection = selectTeam(
      {
        teamId: id.teamId,
        ids: id.tokenTeamIds,
        alias: id.teamAlias,
        header: req.teamHeader,
        model: req.model,
        enforce: s.enforce_team_based_model_access,
        upsert: s.team_id_upsert,
        roleTeam: id.rbacRole === 'team',
      },
      rt.store,
    );
    if (isPromise(selection)) return selection.then((chosen) => this.#withTeam(identity, user, chosen));
    return this.#withTeam(identity, user, selection);
  }

  /** The identity authorized with the team the request is charged to (or none); throws what refuses it. */
  #withTeam(
    identity: ResolvedIdentity,
    user: UserRecord | undefined,
    { team, refusal }: TeamSelection,
  ): AuthContext {
    const { rt, req, id } = this;
    if (refusal?.code === 'team_blocked') throw refusal;
    if (rt.settings.enforce_team_based_model_access && req.model !== undefined) {
      if (id.userId !== undefined && !user) {
        throw new JwtAuthError('user_not_found', `User ${quoted(id.userId)} does not exist`);
      }
      if (!team) {
        throw (
          refusal ?? new JwtAuthError('team_not_found', 'The token names no team with access to this model')
        );
      }
    }
    identity.kind = kindOf(rt, id, team, refusal);
    if (team) identity.team_id = team.team_id;
    return authorize(rt, req, identity, team, id.scopes);
  }
}
