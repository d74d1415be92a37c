import { inspect } from 'node:util';

/** `****abcd` (the last 4 characters); `****` for keys of 8 characters or fewer (CONTRACT 5.5). */
export function maskKey(key: string | undefined | null): string | null {
  if (!key) return null;
  return key.length <= 8 ? '****' : `****${key.slice(-4)}`;
}

// `api_key`, `client_secret`, `azure_ad_token`, `aws_secret_access_key`, `vertex_credentials`,
// `private_key`, `redis_password`, an `Authorization` or `x-api-key` header; not `max_tokens`, not `*_id`
const CREDENTIAL_KEY = /(?:^|[_-])(?:key|secret|token|password|credentials|authorization)$/i;

/** Whether a config key names a credential whose value must never be shown. */
export function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEY.test(key);
}

// deep enough for any config (svc_params -> vertex_credentials -> private_key), shallow enough to stay cheap
const MAX_MASK_DEPTH = 8;

function maskValue(value: unknown): unknown {
  // a reference names a variable, not its value: showing it helps and leaks nothing
  if (typeof value === 'string') return value.startsWith('os.environ/') ? value : (maskKey(value) ?? value);
  if (value && typeof value === 'object') return maskCredentials(value);
  return value === undefined || value === null ? value : '****';
}

function maskAt(value: unknown, depth: number, seen: Set<object>): unknown {
  if (!value || typeof value !== 'object' || seen.has(value) || depth > MAX_MASK_DEPTH) return value;
  if (Array.isArray(value)) {
    seen.add(value);
    const out = value.map((item) => maskAt(item, depth + 1, seen));
    seen.delete(value);
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  seen.add(value);
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = isCredentialKey(key) ? maskValue(inner) : maskAt(inner, depth + 1, seen);
  }
  seen.delete(value);
  return out;
}

/**
 * A copy of config data (a deployment entry, `svc_params`, settings) with every credential masked as
 * `****abcd`: `api_key`, `*_secret`, `*_token`, `*_key`, `*_password`, `vertex_credentials` (and the
 * `private_key` inside a credentials object), `Authorization` headers. `os.environ/NAME` references are
 * shown as written. Plain objects and arrays are copied; anything else is returned as is.
 *
 * @example util.inspect(maskCredentials(router.modelList)) // api_key: '****c3d4'
 */
export function maskCredentials<T>(value: T): T {
  return maskAt(value, 0, new Set()) as T;
}

/**
 * Makes `util.inspect` (and so `console.log`) of `target` print `view()` with credentials masked,
 * through a non-enumerable `[util.inspect.custom]`: `JSON.stringify` and property access are unchanged.
 * Call it before freezing `target`.
 *
 * @example defineMaskedInspect(this, () => ({ modelList: this.modelList, settings }))
 */
export function defineMaskedInspect(target: object, view: () => unknown = () => ({ ...target })): void {
  // util.inspect formats a returned object in place, at the current depth
  Object.defineProperty(target, inspect.custom, { value: () => maskCredentials(view()), enumerable: false });
}
