import { allowedModels, checkModel, checkRoute, type ModelRules } from './access.js';
import type { AuthRuntime } from './auth-runtime.js';
import { asList, asString, type ClaimReader, type Claims, scopesOf } from './claims.js';
import { JwtAuthError, quoted } from './errors.js';
import type { RouteMatcher } from './route-matcher.js';
import { scopeModels } from './scopes.js';
import { syncUser } from './sync.js';
import { selectTeam, type TeamSelection } from './teams.js';
import type { AuthContext, AuthKind, InternalRole, TeamRecord, UserRecord } from './types.js';

/** The parts of the request identity resolution looks at, already normalised. */
export interface RequestFacts {
  path: string;
  model: string | undefined;
  method: string | undefined;
  /** `x-svc-team-id`. */
  teamHeader: string | undefined;
}

const read = (reader: ClaimReader | undefined, claims: Claims) => (reader ? reader(claims) : undefined);

/** `user_allowed_email_domain` (spec 5.3.10): exact domain after the last `@`, case-insensitive. */
function checkEmailDomain(email: string | undefined, domain: string): void {
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

async function resolveOrg(rt: AuthRuntime, claims: Claims): Promise<string | undefined> {
  const id = asString(read(rt.fields.orgId, claims));
  if (id !== undefined) return id;
  const alias = asString(read(rt.fields.orgAlias, claims));
  if (alias === undefined) return undefined;
  const orgs = await rt.store.findOrganizationsByAlias(alias);
  if (orgs.length === 0)
    throw new JwtAuthError('organization_not_found', `No organization has the alias ${quoted(alias)}`);
  if (orgs.length > 1) {
    throw new JwtAuthError(
      'ambiguous_alias',
      `Organization alias ${quoted(alias)} is shared by ${orgs.length} organizations; an alias must name one organization`,
    );
  }
  return orgs[0]!.organization_id;
}

async function resolveUser(
  rt: AuthRuntime,
  claims: Claims,
  userId: string,
  email: string | undefined,
  tokenTeamIds: readonly string[],
): Promise<UserRecord | undefined> {
  const s = rt.settings;
  if (s.sync_user_role_and_teams) {
    const roles = asList(read(rt.fields.userRoles ?? rt.fields.roles, claims), true);
    return syncUser(
      { userId, email, role: rt.roleMap(roles), tokenTeamIds, upsert: s.user_id_upsert },
      rt.store,
    );
  }
  const user = await rt.store.getUser(userId);
  if (user || !s.user_id_upsert) return user;
  const created: UserRecord = { user_id: userId, user_role: 'internal_user' };
  if (email !== undefined) created.user_email = email;
  await rt.store.upsertUser(created);
  return created;
}

const ROLE_OF_KIND: Partial<Record<AuthKind, InternalRole>> = {
  admin: 'proxy_admin',
  team: 'team',
  internal_user: 'internal_user',
};

/**
 * Resolves verified claims (a JWT's, a UserInfo answer's) to an auth context, then checks the route and
 * the model. Order: scopes and roles; the email domain; the user (synced or upserted as configured) and
 * its stored role; admin (scope, `proxy_admin` role mapping or stored role); the organization; the team;
 * the kind; then routes and models.
 */
export async function resolveIdentity(
  rt: AuthRuntime,
  claims: Claims,
  via: AuthContext['via'],
  req: RequestFacts,
): Promise<AuthContext> {
  const s = rt.settings;
  const scopes = scopesOf(claims);
  const roles = asList(read(rt.fields.roles, claims), true);
  const rbacRole = s.enforce_rbac ? rt.rbac.internalRole(roles) : undefined;
  const objectId = asString(read(rt.fields.objectId, claims));
  const teamIdClaim =
    rbacRole === 'team' && objectId !== undefined ? objectId : asString(read(rt.fields.teamId, claims));
  const userId =
    objectId !== undefined && rbacRole !== 'team' ? objectId : asString(read(rt.fields.userId, claims));
  const email = asString(
    rt.fields.userEmail
      ? rt.fields.userEmail(claims)
      : s.user_allowed_email_domain
        ? claims.email
        : undefined,
  );
  if (s.user_allowed_email_domain && (email !== undefined || userId !== undefined)) {
    checkEmailDomain(email, s.user_allowed_email_domain);
  }
  const teamIds = asList(read(rt.fields.teamIds, claims));
  const tokenTeamIds = [...new Set([teamIdClaim, ...teamIds].filter((t): t is string => t !== undefined))];
  const user = userId !== undefined ? await resolveUser(rt, claims, userId, email, tokenTeamIds) : undefined;
  const orgId = await resolveOrg(rt, claims);
  const endUserId = asString(read(rt.fields.endUserId, claims));

  const base = {
    via,
    scopes,
    roles,
    claims,
    ...(userId !== undefined ? { user_id: userId } : {}),
    ...(email !== undefined ? { user_email: email } : {}),
    ...(user?.user_role !== undefined ? { user_role: user.user_role } : {}),
    ...(orgId !== undefined ? { org_id: orgId } : {}),
    ...(endUserId !== undefined ? { end_user_id: endUserId } : {}),
    ...(rbacRole !== undefined ? { internal_role: rbacRole } : {}),
    ...(tokenTeamIds.length > 0 ? { team_ids: tokenTeamIds } : {}),
  };

  const isAdmin =
    scopes.includes(s.admin_jwt_scope) || rbacRole === 'proxy_admin' || user?.user_role === 'proxy_admin';
  if (isAdmin) return finish(rt, req, { ...base, kind: 'admin' }, undefined, scopes);

  let selection: TeamSelection;
  if (rbacRole === 'team' && teamIdClaim !== undefined && !(await rt.store.getTeam(teamIdClaim))) {
    // the `team` role tracks spend on a team object that need not exist (spec 5.4)
    selection = { team: { team_id: teamIdClaim }, tokenTeamIds, refusal: undefined };
  } else {
    selection = await selectTeam(
      {
        teamId: teamIdClaim,
        teamIds,
        alias: asString(read(rt.fields.teamAlias, claims)),
        header: req.teamHeader,
        model: req.model,
        enforce: s.enforce_team_based_model_access,
        upsert: s.team_id_upsert,
      },
      rt.store,
    );
  }
  const { team, refusal } = selection;
  if (refusal?.code === 'team_blocked') throw refusal;
  if (s.enforce_team_based_model_access && req.model !== undefined) {
    if (userId !== undefined && !user)
      throw new JwtAuthError('user_not_found', `User ${quoted(userId)} does not exist`);
    if (!team)
      throw (
        refusal ?? new JwtAuthError('team_not_found', 'The token names no team with access to this model')
      );
  }

  let kind: AuthKind;
  if (rbacRole === 'internal_user' && userId !== undefined) kind = 'internal_user';
  else if (team) kind = 'team';
  else if (userId !== undefined) kind = 'internal_user';
  else if (endUserId !== undefined && !s.enforce_rbac) kind = 'end_user';
  else if (refusal) throw refusal;
  else if (s.enforce_rbac) {
    throw new JwtAuthError('role_not_mapped', 'The token maps to no team, user or admin role (enforce_rbac)');
  } else {
    throw new JwtAuthError('no_identity', 'The token identifies no admin, team, user or end user');
  }
  const ctx = { ...base, kind, ...(team ? { team_id: team.team_id } : {}) };
  return finish(rt, req, ctx, team, scopes);
}

type Partial_ = Omit<AuthContext, 'allowed_routes' | 'allowed_models'>;

/** Route and model checks for a resolved identity; returns the finished context. */
export function finish(
  rt: AuthRuntime,
  req: RequestFacts,
  ctx: Partial_,
  team: TeamRecord | undefined,
  scopes: readonly string[],
): AuthContext {
  const s = rt.settings;
  const role = ROLE_OF_KIND[ctx.kind];
  const permission = s.enforce_rbac && role ? rt.rbac.permissions(role) : undefined;
  const viewOnly = ctx.kind === 'internal_user' && ctx.user_role === 'internal_user_view_only';
  let routes: readonly string[];
  let matcher: RouteMatcher;
  if (viewOnly) {
    routes = ['info_routes'];
    matcher = rt.routes.info;
    const method = req.method?.toUpperCase();
    if (method !== undefined && method !== 'GET' && method !== 'HEAD') {
      throw new JwtAuthError(
        'route_not_allowed',
        `A view-only user may not ${quoted(method)} ${quoted(req.path)}`,
      );
    }
  } else if (permission?.routes && role) {
    routes = permission.routes;
    matcher = rt.routes.byRole.get(role)!;
  } else if (ctx.kind === 'admin') {
    routes = s.admin_allowed_routes;
    matcher = rt.routes.admin;
  } else {
    routes = s.team_allowed_routes;
    matcher = rt.routes.team;
  }
  checkRoute(req.path, ctx.kind, matcher);

  const rules: ModelRules = {
    role: permission?.models && role ? { name: role, models: permission.models } : undefined,
    // an admin is not held to scope_mappings: they grant models to callers, not to the proxy's admins
    scopes:
      s.enforce_scope_based_access && ctx.kind !== 'admin'
        ? scopeModels(scopes, s.scope_mappings)
        : undefined,
    team,
  };
  if (req.model !== undefined) checkModel(req.model, rules);
  const models = allowedModels(rules);
  return { ...ctx, allowed_routes: routes, ...(models ? { allowed_models: models } : {}) };
}
