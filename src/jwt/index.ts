/**
 * `@svc/router/jwt`: JWT/OIDC authentication for custom servers. Not available in this version yet;
 * the subpath resolves so that imports type-check.
 */
export const JWT_MODULE_AVAILABLE = false as const;
