import { allowedModels, checkModel, checkRoute, type ModelRules } from './access.js';
import type { AuthRuntime } from './auth-runtime.js';
import { JwtAuthError, quoted } from './errors.js';
import type { RouteMatcher } from './route-matcher.js';
import { scopeModels } from './scopes.js';
import type { AuthContext, AuthKind, InternalRole, TeamRecord } from './types.js';

/** The parts of the request identity resolution and authorization look at, already normalised. */
export interface RequestFacts {
  path: string;
  model: string | undefined;
  method: string | undefined;
  /** `x-svc-team-id`. */
  teamHeader: string | undefined;
}

const ROLE_OF_KIND: Partial<Record<AuthKind, InternalRole>> = {
  admin: 'proxy_admin',
  team: 'team',
  internal_user: 'internal_user',
};

/** An auth context before its routes and models are decided. */
export type ResolvedIdentity = Omit<AuthContext, 'allowed_routes' | 'allowed_models'>;

/**
 * Route and model checks for a resolved identity; returns the finished context. Routes: a view-only
 * user's are the info routes (read-only); with `enforce_rbac`, the role's `role_permissions` routes;
 * else `admin_allowed_routes` for admins and `team_allowed_routes` for everyone else. Models: the role's,
 * the scopes' (not for admins) and the team's lists must each allow the model. `ctx` becomes the
 * returned context (its routes and models added): pass an object made for this call.
 */
export function authorize(
  rt: AuthRuntime,
  req: RequestFacts,
  ctx: ResolvedIdentity,
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
  // the identity becomes the context: no copy (a spread of it is V8's slow dictionary path)
  const context = ctx as AuthContext;
  context.allowed_routes = routes;
  if (models) context.allowed_models = models;
  return context;
}
