/**
 * `@svc/router/jwt`: JWT/OIDC authentication for custom servers and the proxy, framework-agnostic.
 * docs/jwt.md shows it per identity provider.
 */
export { type CheckedCredential, createJwtAuth, type JwtAuth } from './create-jwt-auth.js';
export {
  JWT_AUTH_ERROR_CODES,
  JwtAuthError,
  type JwtAuthErrorBody,
  type JwtAuthErrorCode,
} from './errors.js';
export { loadCustomValidate } from './load-custom-validate.js';
export { MemoryJwtDirectory, type MemoryJwtDirectorySeed } from './memory-directory.js';
export { parseJwtSettings } from './parse-settings.js';
export { normalizePath } from './path.js';
export { isRouteGroupName, ROUTE_GROUP_NAMES, ROUTE_GROUPS, type RouteGroupName } from './route-groups.js';
export { createRouteMatcher, matchRoute, type RouteMatch, type RouteMatcher } from './route-matcher.js';
export type { CustomValidate, JwtAuthSettings, ResolvedJwtSettings } from './settings-schema.js';
export type {
  AuthContext,
  AuthKind,
  AuthRequest,
  HeadersLike,
  InternalRole,
  JwtAuthDeps,
  KeyMappingRecord,
  MaybePromise,
  OrganizationRecord,
  TeamRecord,
  UserRecord,
  UserRole,
} from './types.js';
export { ALLOWED_ALGORITHMS, MAX_TOKEN_LENGTH } from './verify.js';
export { anyWildcard, type WildcardMatcher, wildcard } from './wildcard.js';
