import type { ResolvedJwtSettings } from './settings-schema.js';
import type { InternalRole } from './types.js';

/** Default models and routes of an internal role (`role_permissions`). */
export interface RolePermission {
  models?: readonly string[] | undefined;
  routes?: readonly string[] | undefined;
}

/** RBAC (spec 5.4), compiled once from `role_mappings` and `role_permissions`. */
export interface Rbac {
  /** The internal role of the first `role_mappings` entry (in settings order) the token's roles name. */
  internalRole(roles: readonly string[]): InternalRole | undefined;
  permissions(role: InternalRole): RolePermission | undefined;
}

export function createRbac(settings: Pick<ResolvedJwtSettings, 'role_mappings' | 'role_permissions'>): Rbac {
  const permissions = new Map(
    settings.role_permissions.map((p) => [p.role, { models: p.models, routes: p.routes }]),
  );
  return {
    internalRole(roles) {
      if (roles.length === 0) return undefined;
      const held = new Set(roles);
      return settings.role_mappings.find((m) => held.has(m.role))?.internal_role;
    },
    permissions: (role) => permissions.get(role),
  };
}
