/** JSON claims of a token (or of a UserInfo answer). */
export type Claims = Readonly<Record<string, unknown>>;

/**
 * The keys of a `*_jwt_field` setting: split on dots, except a dot escaped with a backslash, which is
 * part of the key (`resource_access.my\.client.roles` -> `resource_access`, `my.client`, `roles`).
 *
 * @example fieldPath('user.sub') // => ['user', 'sub']
 */
export function fieldPath(field: string): string[] {
  const keys: string[] = [];
  let key = '';
  for (let i = 0; i < field.length; i++) {
    const ch = field[i];
    if (ch === '\\' && field[i + 1] === '.') {
      key += '.';
      i++;
    } else if (ch === '.') {
      keys.push(key);
      key = '';
    } else {
      key += ch;
    }
  }
  keys.push(key);
  return keys;
}

/** A compiled field: the claim at that path of any claims object. */
export type ClaimReader = (claims: Claims) => unknown;

/** Compiles a field setting once; reading walks own properties only (never a prototype's). */
export function claimReader(field: string): ClaimReader {
  const path = fieldPath(field);
  return (claims) => {
    let value: unknown = claims;
    for (const key of path) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
      if (!Object.hasOwn(value, key)) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  };
}

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value.length > 0 ? value : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * A claim read as one string: a string or a number as it is; a list gives its first string (a
 * `roles: [...]` where one value was expected is not a crash); anything else is absent.
 */
export function asString(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const s = scalar(item);
      if (s !== undefined) return s;
    }
    return undefined;
  }
  return scalar(value);
}

/**
 * A claim read as a list of strings: a list keeps its string (and number) entries; a single string is
 * one entry, or split on whitespace when `split` (scopes, roles); anything else is empty.
 */
export function asList(value: unknown, split = false): string[] {
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const item of value) {
      const s = scalar(item);
      if (s !== undefined) out.push(s);
    }
    return out;
  }
  const s = scalar(value);
  if (s === undefined) return [];
  return split ? s.split(/\s+/).filter((part) => part.length > 0) : [s];
}

/**
 * The token's scopes: `scope` as a list or a space-separated string (spec 5.3.3); when absent, `scp`
 * (Okta and Entra spell it so).
 */
export function scopesOf(claims: Claims): string[] {
  const scope = Object.hasOwn(claims, 'scope') ? claims.scope : claims.scp;
  return asList(scope, true);
}
