import { type ClaimReader, claimReader } from './claims.js';
import { KeyMappings } from './key-mapping.js';
import { KeySets } from './key-sets.js';
import { OAuth2Validator } from './oauth2.js';
import { createOverrideMatcher } from './overrides.js';
import { createRbac, type Rbac } from './rbac.js';
import { createRouteMatcher, type RouteMatcher } from './route-matcher.js';
import type { ResolvedJwtSettings } from './settings-schema.js';
import { type AuthStore, guardStore } from './store.js';
import { createRoleMap } from './sync.js';
import type { InternalRole, JwtAuthDeps, UserRole } from './types.js';
import { UserInfoClient } from './userinfo.js';
import { createVerifier, type JwtVerifier, VERIFIED_TOKEN_TTL_MS } from './verify.js';

/** Claim readers of the `*_jwt_field` settings that are set. */
export interface FieldReaders {
  teamId?: ClaimReader;
  teamIds?: ClaimReader;
  teamAlias?: ClaimReader;
  userId?: ClaimReader;
  userEmail?: ClaimReader;
  userRoles?: ClaimReader;
  orgId?: ClaimReader;
  orgAlias?: ClaimReader;
  endUserId?: ClaimReader;
  objectId?: ClaimReader;
  roles?: ClaimReader;
}

/** Route lists compiled once. */
export interface CompiledRoutes {
  public: RouteMatcher;
  admin: RouteMatcher;
  team: RouteMatcher;
  /** Model-call routes: a `{model_name}` in the path is the model. */
  llm: RouteMatcher;
  info: RouteMatcher;
  byRole: ReadonlyMap<InternalRole, RouteMatcher>;
}

/** Everything `authenticate` uses, built once by `createJwtAuth`. */
export interface AuthRuntime {
  settings: ResolvedJwtSettings;
  store: AuthStore;
  keySets: KeySets;
  verify: JwtVerifier;
  userinfo: UserInfoClient | undefined;
  oauth2: OAuth2Validator | undefined;
  keyMappings: KeyMappings | undefined;
  overrideMatches: ReturnType<typeof createOverrideMatcher>;
  rbac: Rbac;
  roleMap: (roles: readonly string[]) => UserRole;
  fields: FieldReaders;
  routes: CompiledRoutes;
}

const ms = (seconds: number) => seconds * 1000;

function readers(s: ResolvedJwtSettings): FieldReaders {
  const entries: [keyof FieldReaders, string | null | undefined][] = [
    ['teamId', s.team_id_jwt_field],
    ['teamIds', s.team_ids_jwt_field],
    ['teamAlias', s.team_alias_jwt_field],
    ['userId', s.user_id_jwt_field],
    ['userEmail', s.user_email_jwt_field],
    ['userRoles', s.user_roles_jwt_field],
    ['orgId', s.org_id_jwt_field],
    ['orgAlias', s.org_alias_jwt_field],
    ['endUserId', s.end_user_id_jwt_field],
    ['objectId', s.object_id_jwt_field],
    ['roles', s.roles_jwt_field],
  ];
  const out: FieldReaders = {};
  for (const [name, field] of entries) if (field) out[name] = claimReader(field);
  return out;
}

export function buildAuthRuntime(settings: ResolvedJwtSettings, deps: JwtAuthDeps): AuthRuntime {
  const timeoutMs = ms(settings.identity_provider_timeout);
  const byRole = new Map<InternalRole, RouteMatcher>();
  for (const p of settings.role_permissions) if (p.routes) byRole.set(p.role, createRouteMatcher(p.routes));
  const store = guardStore(deps);
  const keySets = new KeySets(settings.public_key_urls, {
    ttlMs: ms(settings.public_key_ttl),
    cooldownMs: ms(settings.public_key_refetch_cooldown),
    timeoutMs,
  });
  return {
    settings,
    store,
    keySets,
    verify: createVerifier(keySets, {
      audiences: settings.audiences,
      clockToleranceSeconds: settings.clock_tolerance,
      rememberVerifiedMs: Math.min(VERIFIED_TOKEN_TTL_MS, ms(settings.public_key_ttl)),
    }),
    userinfo:
      settings.oidc_userinfo_enabled && settings.oidc_userinfo_endpoint
        ? new UserInfoClient({
            endpoint: settings.oidc_userinfo_endpoint,
            ttlMs: ms(settings.oidc_userinfo_cache_ttl),
            timeoutMs,
          })
        : undefined,
    oauth2: settings.oauth2_token_info_endpoint
      ? new OAuth2Validator({
          endpoint: settings.oauth2_token_info_endpoint,
          timeoutMs,
          userIdField: settings.oauth_user_id_field_name,
          userRoleField: settings.oauth_user_role_field_name,
          teamIdField: settings.oauth_user_team_id_field_name,
        })
      : undefined,
    keyMappings: settings.virtual_key_claim_field
      ? new KeyMappings(store, settings.virtual_key_claim_field, ms(settings.virtual_key_mapping_cache_ttl))
      : undefined,
    overrideMatches: createOverrideMatcher(settings.routing_overrides),
    rbac: createRbac(settings),
    roleMap: createRoleMap(settings.jwt_litellm_role_map),
    fields: readers(settings),
    routes: {
      public: createRouteMatcher(settings.public_allowed_routes),
      admin: createRouteMatcher(settings.admin_allowed_routes),
      team: createRouteMatcher(settings.team_allowed_routes),
      llm: createRouteMatcher(['llm_api_routes']),
      info: createRouteMatcher(['info_routes']),
      byRole,
    },
  };
}
