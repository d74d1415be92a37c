import { JwtAuthError, quoted } from './errors.js';
import type { RouteMatcher } from './route-matcher.js';
import { teamAllowsModel } from './teams.js';
import type { AuthKind, TeamRecord } from './types.js';

const KIND_NAMES: Record<AuthKind, string> = {
  admin: 'an admin',
  team: 'a team',
  internal_user: 'a user',
  end_user: 'an end user',
  virtual_key: 'a virtual key',
  public: 'an anonymous caller',
};

/** Refuses (403) a path outside the identity's allowed routes. */
export function checkRoute(path: string, kind: AuthKind, allowed: RouteMatcher): void {
  if (!allowed(path)) {
    throw new JwtAuthError(
      'route_not_allowed',
      `Route ${quoted(path)} is not allowed for ${KIND_NAMES[kind]} token`,
    );
  }
}

/** The model restrictions that apply to a request, each optional. */
export interface ModelRules {
  /** `role_permissions[].models` of the identity's role (with `enforce_rbac`). */
  role?: { name: string; models: readonly string[] } | undefined;
  /** Models the token's scopes grant (with `enforce_scope_based_access`). */
  scopes?: readonly string[] | undefined;
  /** The chosen team, whose `models` bind when it lists any. */
  team?: TeamRecord | undefined;
}

const teamRestricts = (team: TeamRecord | undefined): team is TeamRecord =>
  team !== undefined &&
  !!team.models &&
  team.models.length > 0 &&
  !team.models.some((m) => m === '*' || m === 'all-proxy-models');

/** Refuses (403) a model one of the rules does not allow, naming the rule. */
export function checkModel(model: string, rules: ModelRules): void {
  if (rules.role && !rules.role.models.includes(model)) {
    throw new JwtAuthError(
      'model_not_allowed',
      `Role ${quoted(rules.role.name)} may not call model ${quoted(model)}`,
    );
  }
  if (rules.scopes && !rules.scopes.includes(model)) {
    throw new JwtAuthError('model_not_allowed', `The token's scopes do not grant model ${quoted(model)}`);
  }
  if (rules.team && !teamAllowsModel(rules.team, model)) {
    throw new JwtAuthError(
      'model_not_allowed',
      `Team ${quoted(rules.team.team_id)} has no access to model ${quoted(model)}`,
    );
  }
}

/**
 * The models the identity may call, as far as the token, its role and its team say: the role's and the
 * scopes' lists intersected, then kept to what the team allows; the team's own list when it is the only
 * rule. Undefined when nothing restricts.
 */
export function allowedModels(rules: ModelRules): readonly string[] | undefined {
  let list: string[] | undefined;
  if (rules.role) list = [...rules.role.models];
  if (rules.scopes) list = list ? list.filter((m) => rules.scopes!.includes(m)) : [...rules.scopes];
  if (teamRestricts(rules.team)) {
    const team = rules.team;
    list = list ? list.filter((m) => teamAllowsModel(team, m)) : [...(team.models ?? [])];
  }
  return list;
}
