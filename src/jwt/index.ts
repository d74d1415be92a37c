/**
 * `@svc/router/jwt`: JWT/OIDC authentication for custom servers and the proxy, framework-agnostic.
 * Being built: settings, key sets and token verification so far.
 */
export {
  JWT_AUTH_ERROR_CODES,
  JwtAuthError,
  type JwtAuthErrorBody,
  type JwtAuthErrorCode,
} from './errors.js';
export { parseJwtSettings } from './parse-settings.js';
export { ROUTE_GROUP_NAMES, ROUTE_GROUPS, type RouteGroupName } from './route-groups.js';
export type { CustomValidate, JwtAuthSettings, ResolvedJwtSettings } from './settings-schema.js';
export { ALLOWED_ALGORITHMS, MAX_TOKEN_LENGTH } from './verify.js';
