/** A compiled shell-style pattern: `*` any run of characters, `?` one character, case-sensitive. */
export type WildcardMatcher = (value: string) => boolean;

/**
 * Compiles a shell-style pattern (`ADMIN_*`, `https://login.example.com/*`, `?pi`). Only `*` and `?`
 * are special; everything else matches itself, case-sensitively. A pattern without either is an exact
 * comparison.
 *
 * @example wildcard('ADMIN_*')('ADMIN_EU') // => true
 */
export function wildcard(pattern: string): WildcardMatcher {
  if (!pattern.includes('*') && !pattern.includes('?')) return (value) => value === pattern;
  let source = '';
  for (const ch of pattern) {
    if (ch === '*') source += '[\\s\\S]*';
    else if (ch === '?') source += '[\\s\\S]';
    else source += ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  const re = new RegExp(`^${source}$`, 'u');
  return (value) => re.test(value);
}

/** One matcher for several patterns: true when any matches. */
export function anyWildcard(patterns: readonly string[]): WildcardMatcher {
  const matchers = patterns.map(wildcard);
  return (value) => matchers.some((m) => m(value));
}
