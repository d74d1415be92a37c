/**
 * `@svc/router/proxy`: the HTTP gateway. Not available in this version yet; the subpath resolves so
 * that imports type-check.
 */
export const PROXY_AVAILABLE = false as const;
